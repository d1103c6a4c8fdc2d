// SelectAccountPage.swift: `GET <base>/oidc/select_account`: prompt=select_account, the account switcher for an
// application: the account now active, the browser's other signed-in accounts (RequestContext+Accounts), and "use
// another account" (sign in adding one, `session.max_accounts` permitting).
//
// Options: the authorization request's parameters (OpenIDAuthorizationRequest). Every choice comes back to the
// authorize endpoint with the marker `fd_account_chosen=1`: continuing is a link; another account is the switcher's own
// form (`POST switch`, CSRF checked, `rd` the way back); another sign-in is `sign_in?add=1&rd=…`. A deviation from the
// contract's table: GET only, since the switch itself is the existing `switch` form.
import AccountCore

struct SelectAccountPage: Sendable {
    let endpoint: AuthorizeEndpoint
    init(_ core: AccountServices) { endpoint = AuthorizeEndpoint(core) }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        guard case .request(let request) = try endpoint.parse(context, context.query) else {
            return try endpoint.authorize(context, sent: context.query)   // its error page or redirect
        }
        let paths = context.site.paths, catalog = context.catalog
        let back = request.path("oidc/authorize", paths: paths, changes: ["fd_account_chosen": "1"])
        var values: [String: Any] = [
            "intro": catalog.text("oidc_select_text", ["client": request.client.name]),
            "current_email": session.email,
            "continue_url": back,
            "continue_label": catalog.text("oidc_select_continue", ["email": session.email]),
            "rd": back,
        ]
        values["others"] = try context.otherAccounts().map { other -> [String: Any] in
            ["handle": other.handle, "email": other.session.email, "label": catalog.text("oidc_select_continue", ["email": other.session.email])]
        }
        if try context.hasRoomForAnotherAccount() { values["another_url"] = paths.path("sign_in") + "?add=1&rd=" + FormData.encode(back) }
        return try context.layout.page("oidc_select_account", values)
    }
}
