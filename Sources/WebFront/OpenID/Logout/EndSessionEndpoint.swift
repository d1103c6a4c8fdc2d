// EndSessionEndpoint.swift: OpenID Connect RP-Initiated Logout 1.0: `GET|POST <base>/oidc/logout` (the discovery
// document's end_session_endpoint, a cross-site route: cookies read, no CSRF token, POST handled as GET) and
// `POST <base>/oidc/logout/confirm` (the confirmation form, with its CSRF token).
//
// Options (query or form): `id_token_hint` (an ID token we issued: its signature by one of our published keys
// (site.openID.keys.verify), its `iss` ours; an expired one is fine), `client_id`, `post_logout_redirect_uri`,
// `state` (echoed on the redirect), `ui_locales` (ignored: the page speaks the person's language).
// Rules:
//   - the client is the hint's audience, else `client_id`; both given and different → a 400 error page;
//   - `post_logout_redirect_uri` is followed only when registered exactly for that client (else the page says the
//     person is signed out and stays here: never a redirect to an unregistered URI);
//   - a valid hint naming the browser's active session (its `sid`, else its `sub` for the client) signs out at once;
//     anything else (no hint, a hint we cannot verify, one naming another account or session) shows a confirmation
//     page first, so a link on any site cannot sign a person out by itself;
//   - with no session there is nothing to end: straight on to the redirect (or the signed-out page).
// Signing out ends the active Frontdoor session like sign_out (RequestContext.signOutActive), so the core revokes its
// grants and queues the back-channel logouts in that transaction.
import AccountCore
import Foundation

/// RP-initiated logout and its confirmation.
struct EndSessionEndpoint: Sendable {
    // Core operations this page uses, given in Routes.openIDApps.
    let grants: OpenIDGrants
    let clients: OpenIDClients
    init(_ core: AccountServices) { (grants, clients) = (core.openID, core.openIDClients) }

    /// What a request asks, once checked.
    struct Ask {
        /// The client the request names (hint audience, else client_id); nil when none or unknown.
        var client: OpenIDClient?
        /// The registered post-logout URI with `state` added; nil: stay on our page.
        var redirect: String?
        /// The verified hint's claims; nil when no valid hint came.
        var hint: [String: Any]?
        var state: String?
    }

    /// `GET|POST oidc/logout`.
    func handle(_ context: RequestContext) throws -> Response {
        let parameters = context.request.method == "POST" ? context.form : context.query
        let ask = try read(parameters, context)
        guard let session = try context.session() else { return finish(context, ask) }
        if let hint = ask.hint, let client = ask.client, try names(hint, session: session, client: client) {
            _ = try context.signOutActive()
            context.site.logger.info("oidc logout", metadata: ["client": "\(client.id)", "confirmed": "hint"])
            return finish(context, ask)
        }
        return try context.layout.page("oidc_logout", [
            "confirm": true, "confirm_path": context.site.paths.path("oidc/logout/confirm"),
            "question": context.catalog.text("oidc_logout_question", ["site": context.site.configuration.siteName]),
            "app": ask.client.map { context.catalog.text("oidc_logout_app", ["app": $0.name]) } ?? "",
            "client_id": ask.client?.id ?? "",
            "post_logout_redirect_uri": ask.redirect == nil ? "" : parameters["post_logout_redirect_uri"] ?? "",
            "state": ask.state ?? "",
        ])
    }

    /// `POST oidc/logout/confirm` (CSRF checked by the route's kind): signs the active session out, then as `handle`.
    func confirm(_ context: RequestContext) throws -> Response {
        let ask = try read(context.form.filter { $0.key != "id_token_hint" }, context)
        if try context.session() != nil {
            _ = try context.signOutActive()
            context.site.logger.info("oidc logout", metadata: ["client": "\(ask.client?.id ?? "-")", "confirmed": "form"])
        }
        return finish(context, ask)
    }

    /// The checked request: the hint verified, the client found, the redirect URI allowed or dropped.
    func read(_ parameters: [String: String], _ context: RequestContext) throws -> Ask {
        guard let openID = context.site.openID else { throw HTTPError.notFound }
        var ask = Ask(state: parameters["state"].flatMap { $0.isEmpty ? nil : $0 })
        var clientID = parameters["client_id"].flatMap { $0.isEmpty ? nil : $0 }
        if let token = parameters["id_token_hint"], !token.isEmpty {
            if let claims = try? openID.keys.verify(token), claims["iss"] as? String == openID.issuer,
               let audience = Self.audience(claims) {
                guard clientID == nil || clientID == audience else {
                    throw HTTPError(status: 400, messageKey: "oidc_logout_client_mismatch")
                }
                clientID = audience
                ask.hint = claims
            } else {
                context.site.logger.info("oidc logout hint refused", metadata: ["client": "\(clientID ?? "-")"])
            }
        }
        ask.client = try clientID.flatMap { try clients.client($0) }
        if let uri = parameters["post_logout_redirect_uri"], !uri.isEmpty {
            if let client = ask.client, client.postLogoutRedirectURIs.contains(uri) {
                ask.redirect = Self.adding(state: ask.state, to: uri)
            } else {
                context.site.logger.info("oidc logout redirect refused", metadata: ["client": "\(clientID ?? "-")", "uri": "\(uri)"])
            }
        }
        return ask
    }

    /// Whether the hint names `session`: its `sid`, or (a hint without one) its account's subject for `client`.
    func names(_ hint: [String: Any], session: SessionInfo, client: OpenIDClient) throws -> Bool {
        if let sid = hint["sid"] as? String { return sid == grants.sid(sessionDigest: session.digest) }
        guard let subject = hint["sub"] as? String else { return false }
        return subject == (try grants.subject(accountID: session.accountId, client: client))
    }

    /// To the registered URI, else our signed-out page.
    private func finish(_ context: RequestContext, _ ask: Ask) -> Response {
        if let redirect = ask.redirect { return context.redirect(to: redirect) }
        return (try? context.layout.page("oidc_logout", ["done": true, "message": context.catalog.text("oidc_logout_done")]))
            ?? context.redirect(to: context.site.paths.signIn())
    }

    /// The single audience of an ID token (`aud` as a string, or an array of one; `azp` when it names several).
    static func audience(_ claims: [String: Any]) -> String? {
        if let aud = claims["aud"] as? String { return aud }
        guard let list = claims["aud"] as? [String] else { return nil }
        return list.count == 1 ? list[0] : claims["azp"] as? String
    }

    /// `uri` with `state=…` appended to its query (kept as registered otherwise).
    static func adding(state: String?, to uri: String) -> String {
        guard let state else { return uri }
        let (base, fragment) = uri.firstIndex(of: "#").map { (String(uri[..<$0]), String(uri[$0...])) } ?? (uri, "")
        return base + (base.contains("?") ? "&" : "?") + "state=" + FormData.encode(state) + fragment
    }
}
