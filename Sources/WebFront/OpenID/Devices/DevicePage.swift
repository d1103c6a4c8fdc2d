// DevicePage.swift: `GET|POST <base>/device`: where a person lets a device in (RFC 8628 3.3): they type the code the
// device shows (or arrive with it from `verification_uri_complete`), see which app asks and what it will see, and
// allow or deny it.
//
// Signed in only: without a session the page sends the person through sign-in and back (the code kept in `rd`). The
// client's allow rule (GateRule, with the account's verified address and groups) must admit the account (else 403,
// nothing approved), and a client with `second_factor: required` needs a session of two factors: a one-factor session
// is sent through the second step first (`sign_in/second_factor?rd=…`), as the authorization endpoint does. The
// grant's auth_time is when the session last proved who is there (Reauthentication.authenticatedAt).
//   GET  device                    the code form
//   GET  device?user_code=BCDF-GHJK the request: app, account, claims by scope, Allow / Deny (a GET changes nothing,
//                                  so a followed link approves nothing); an unknown or expired code: the form again
//   POST device (CSRF) user_code, decision=approve|deny → OpenIDGrants.approveDevice / denyDevice, then a message page
// Codes are read without case, spaces or dashes (`bcdf ghjk` is `BCDF-GHJK`).
import AccountCore
import Foundation

/// The device verification page.
struct DevicePage: Sendable {
    // Core operations this page uses, given in Routes.openIDTokens.
    let core: AccountServices
    init(_ core: AccountServices) { self.core = core }

    func show(_ context: RequestContext) throws -> Response {
        guard context.site.openID != nil else { throw HTTPError.notFound }
        let session = try context.requireSession()
        guard let typed = context.query["user_code"], !typed.isEmpty else { return try form(context, code: "") }
        let code = Self.normalized(typed)
        guard let pending = try core.openID.pendingDevice(userCode: code, client: context.client), let client = try core.openIDClients.client(pending.clientID) else {
            return try form(context, code: typed, error: true)
        }
        if let refusal = try admit(context, session: session, client: client, code: code) { return refusal }
        let catalog = context.catalog, app = client.name
        return try context.layout.page("oidc_device_confirm", [
            "title": catalog.text("oidc_device_confirm_title", ["app": app]),
            "intro": catalog.text("oidc_device_confirm_text", ["app": app, "email": session.email]),
            "user_code": code,
            "claims": pending.scopes.compactMap { Self.claimKeys[$0].map { catalog.text($0) } },
            "action": context.site.paths.path("device"),
        ])
    }

    func submit(_ context: RequestContext) throws -> Response {
        guard context.site.openID != nil else { throw HTTPError.notFound }
        let session = try context.requireSession()
        let code = Self.normalized(context.form["user_code"] ?? "")
        guard let pending = try core.openID.pendingDevice(userCode: code, client: context.client), let client = try core.openIDClients.client(pending.clientID) else {
            return try form(context, code: context.form["user_code"] ?? "", error: true)
        }
        if let refusal = try admit(context, session: session, client: client, code: code) { return refusal }
        let catalog = context.catalog
        let done: Bool, outcome: String
        if context.form["decision"] == "approve" {
            let authentication = OpenIDAuthentication(accountID: session.accountId, sessionDigest: session.digest,
                                                      authTime: try core.reauthentication.authenticatedAt(session.digest) ?? session.createdAt,
                                                      factors: session.factors)
            done = try core.openID.approveDevice(userCode: code, authentication: authentication, client: context.client)
            outcome = "approved"
        } else {
            done = try core.openID.denyDevice(userCode: code, accountID: session.accountId, client: context.client)
            outcome = "denied"
        }
        guard done else { return try form(context, code: code, error: true) }
        context.site.logger.info("oidc device \(outcome)", metadata: ["client": "\(client.id)", "account": "\(session.accountId)"])
        return try context.layout.page("message", ["title": catalog.text("oidc_device_\(outcome)_title"),
                                                   "text": catalog.text("oidc_device_\(outcome)_text", ["app": client.name])])
    }

    /// Nil when `client` may be used by the session's person now; otherwise the answer: 403 when its allow rule refuses
    /// the account, or the second step (which comes back to this code) when it asks two factors and the session has one.
    private func admit(_ context: RequestContext, session: SessionInfo, client: OpenIDClient, code: String) throws -> Response? {
        let person = GateRule.Person(verifiedEmail: session.emailVerified ? session.email : nil, groups: session.groups)
        guard GateRule(client.allow).allows(person) else {
            context.site.logger.info("oidc device refused by the client's rule", metadata: ["client": "\(client.id)", "account": "\(session.accountId)"])
            let catalog = context.catalog
            return try context.layout.page("message", ["title": catalog.text("oidc_device_refused_title"),
                                                       "text": catalog.text("oidc_device_refused_text", ["app": client.name])], status: 403)
        }
        guard client.requiresSecondFactor, session.factors < 2 else { return nil }
        let back = context.site.paths.path("device") + "?user_code=" + FormData.encode(code)
        let location = context.site.paths.path("sign_in/second_factor") + "?rd=" + FormData.encode(back)
        return context.redirect(to: location)
    }

    /// The code form, `code` in its field; `error`: the code is unknown, used or expired.
    private func form(_ context: RequestContext, code: String, error: Bool = false) throws -> Response {
        try context.layout.page("oidc_device", [
            "action": context.site.paths.path("device"), "user_code": code,
            "form_error": error ? context.catalog.text("oidc_device_unknown") : false as Any,
        ], status: error ? 404 : 200)
    }

    /// `bcdf ghjk`, `BCDFGHJK`, `bcdf-ghjk` → `BCDF-GHJK`: letters only, upper case, a dash after the fourth.
    static func normalized(_ typed: String) -> String {
        let letters = typed.uppercased().unicodeScalars.filter { ("A"..."Z").contains($0) }
        var code = String(String.UnicodeScalarView(letters.prefix(64)))
        if code.count == 8 { code.insert("-", at: code.index(code.startIndex, offsetBy: 4)) }
        return code
    }

    /// The catalog key saying what each scope lets the app see.
    static let claimKeys = ["openid": "oidc_device_scope_openid", "profile": "oidc_device_scope_profile",
                            "email": "oidc_device_scope_email", "groups": "oidc_device_scope_groups"]
}
