// ResidenceApprovalPage.swift: `GET|POST <base>/residences/confirm?token=…`: the link of a residence mail.
//
// Options: none of its own (see AccountCore's Residences.swift). The GET only shows what asks (the address, the device
// and where it asked from) with an "Allow this device" button: a mail scanner that follows links approves nothing.
// The POST (CSRF) approves; an unknown, used or expired link shows one "does not work" page, a refusal its own.
import AccountCore

/// Approving an email residence from its mailed link.
struct ResidenceApprovalPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let residences: Residences
    init(_ core: AccountServices) { residences = core.residences }

    func show(_ context: RequestContext) throws -> Response {
        let token = context.query["token"] ?? ""
        let request: ResidenceRequest
        do {
            request = try residences.pendingApproval(token: token)
        } catch AccountError.invalidToken {
            return try invalid(context)
        }
        let catalog = context.catalog
        return try context.layout.page("residence_confirm", [
            "intro": catalog.text("residence_text", ["site": context.site.configuration.siteName, "email": request.email]),
            "device": TemplateMailComposer.device(userAgent: request.userAgent, remoteAddress: request.remoteAddress, catalog: catalog),
            "token": token,
            "action": context.site.paths.path("residences/confirm"),
        ])
    }

    func submit(_ context: RequestContext) throws -> Response {
        let catalog = context.catalog
        do {
            let email = try residences.approve(token: context.form["token"] ?? "", client: context.client)
            return try context.layout.page("message", ["title": catalog.text("residence_approved_title"),
                                                       "text": catalog.text("residence_approved_text", ["email": email])])
        } catch AccountError.invalidToken {
            return try invalid(context)
        } catch AccountError.refused(let key) {
            return try context.layout.page("message", ["title": catalog.text("residence_refused_title"), "text": catalog.text(key)], status: 403)
        }
    }

    private func invalid(_ context: RequestContext) throws -> Response {
        try context.layout.page("message", ["title": "residence_invalid_title", "text": "residence_invalid_text"].localized(context), status: 404)
    }
}
