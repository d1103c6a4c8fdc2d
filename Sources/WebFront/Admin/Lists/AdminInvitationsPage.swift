// AdminInvitationsPage.swift: admin/invitations: the open invitations, each with a revoke form, and a form that
// invites an address with a chosen lifetime, mailed or not.
//
// Options: `signup` (closed: the page says invitations are off and has no form, as `Invitations.create` refuses;
// open: invitations still work and the page says anyone can sign up), `invite.lifetime` (offered first, as the
// default), `public_url` (the link). A link not mailed is shown once, in the answer to the POST itself (never carried
// across a redirect: the token would sit in a cookie); a mailed one gets a flash after the redirect. Every change
// carries `context.adminClient`, so its audit row names the admin.
import AccountCore
import AccountRules
import Foundation

/// `GET|POST <base>/admin/invitations`, `POST <base>/admin/invitations/revoke` (`email`).
struct AdminInvitationsPage: Sendable {
    let invitations: Invitations
    init(_ core: AccountServices) { invitations = core.invitations }

    /// The lifetimes offered besides the configured one (`expires_in` values).
    static let choices = ["1d", "7d", "30d"]

    func show(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        return try render(context)
    }

    func create(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let form = context.form
        let sendMail = form["send_mail"] == "1"
        let configured = context.site.configuration.inviteLifetime
        let lifetime = Self.seconds(form["expires_in"] ?? "")
        let issued: IssuedInvitation
        do {
            if lifetime == configured {
                // The operator's own choice: taken as `frontdoor invite create` takes it, whatever its length.
                issued = try invitations.create(email: form["email"] ?? "", client: context.adminClient, sendMail: sendMail)
            } else {
                issued = try invitations.create(email: form["email"] ?? "", lifetime: lifetime ?? 0, client: context.adminClient,
                                                sendMail: sendMail)
            }
        } catch AccountError.invalid(let errors) {
            return try render(context, form: form, errors: errors, status: 422)
        } catch AccountError.signUpClosed {
            return done(context, Flash("admin_invitations_closed", kind: .alert))
        }
        if sendMail { return done(context, Flash("admin_invitations_sent")) }
        return try render(context, issued: issued)
    }

    func revoke(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let revoked = try invitations.revoke(email: context.form["email"] ?? "", client: context.adminClient)
        return done(context, revoked > 0 ? Flash("admin_invitations_revoked") : Flash("admin_invitations_not_found", kind: .alert))
    }

    // MARK: Helpers

    private func done(_ context: RequestContext, _ flash: Flash) -> Response {
        context.flash.set(flash)
        return context.redirect(to: context.site.paths.path("admin/invitations"))
    }

    /// The list, the form (with `form` and `errors` when re-shown) and, once, the link of an invitation just made.
    private func render(_ context: RequestContext, form: [String: String] = [:], errors: ValidationErrors = .init(),
                        issued: IssuedInvitation? = nil, status: Int = 200) throws -> Response {
        let catalog = context.catalog
        let configured = context.site.configuration.inviteLifetime
        let rows: [[String: Any]] = try invitations.list(limit: 500).map { invitation in
            ["address": invitation.address,
             "created": SessionsPage.timestamp(invitation.createdAt), "created_iso": SessionsPage.iso(invitation.createdAt),
             "expires": SessionsPage.timestamp(invitation.expiresAt), "expires_iso": SessionsPage.iso(invitation.expiresAt)]
        }
        var fields = form
        fields["email"] = (form["email"] ?? "").trimmingWhitespace()
        var values = FormView.fields([.email(autocomplete: "off")], form: fields, errors: errors, catalog: catalog)
        let chosen = form["expires_in"] ?? Self.value(configured)
        let offered = [Self.value(configured)] + Self.choices.filter { $0 != Self.value(configured) }
        values["lifetimes"] = offered.enumerated().map { index, value -> [String: Any] in
            let label = Self.label(Self.seconds(value) ?? configured, catalog: catalog)
            return ["value": value, "selected": value == chosen,
                    "label": index == 0 ? catalog.text("admin_invitations_lifetime_default", ["duration": label]) : label]
        }
        let lifetimeErrors = errors.messages(for: "expires_in", in: catalog, labels: ["expires_in": catalog.text("admin_invitations_expires_in")])
        if !lifetimeErrors.isEmpty { values["lifetime_error"] = lifetimeErrors.joined(separator: "; ") }
        values["send_mail"] = form["send_mail"] == "1"
        values["invitations"] = rows
        values["has_invitations"] = !rows.isEmpty
        values["closed"] = invitations.mode == .closed
        values["open"] = invitations.mode == .open
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        if let issued {
            values["issued"] = [
                "link": context.site.configuration.invitationLink(token: issued.token),
                "text": catalog.text("admin_invitations_link_text", ["email": issued.address, "expires": SessionsPage.timestamp(issued.expiresAt)]),
            ]
        }
        return try context.layout.adminPage("admin_invitations", section: "invitations", values, status: status)
    }

    /// `expires_in`'s value for `seconds`: whole days (`7d`), else whole hours (`36h`), else seconds (`90s`).
    static func value(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        if whole % 86400 == 0 { return "\(whole / 86400)d" }
        if whole % 3600 == 0 { return "\(whole / 3600)h" }
        return "\(whole)s"
    }

    /// The seconds an `expires_in` value names (`7d`, `36h`, `90s`); nil when it is no such value.
    static func seconds(_ value: String) -> TimeInterval? {
        guard let unit = value.last, let count = Int(value.dropLast()), count > 0, count < 1_000_000 else { return nil }
        switch unit {
        case "d": return TimeInterval(count * 86400)
        case "h": return TimeInterval(count * 3600)
        case "s": return TimeInterval(count)
        default: return nil
        }
    }

    /// "7 days", "1 hour", in the page's language (whole hours at least; less is shown in hours, rounded up).
    static func label(_ seconds: TimeInterval, catalog: MessageCatalog) -> String {
        let whole = Int(seconds)
        if whole % 86400 == 0 {
            let days = whole / 86400
            return days == 1 ? catalog.text("admin_invitations_day") : catalog.text("admin_invitations_days", ["count": "\(days)"])
        }
        let hours = max(1, (whole + 3599) / 3600)
        return hours == 1 ? catalog.text("admin_invitations_hour") : catalog.text("admin_invitations_hours", ["count": "\(hours)"])
    }
}
