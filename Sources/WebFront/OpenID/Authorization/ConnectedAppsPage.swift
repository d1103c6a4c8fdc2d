// ConnectedAppsPage.swift: `GET <base>/settings/apps` ("Connected apps"): the applications the account let in through
// the OpenID Connect provider (consent given, or a first-party client holding a live grant), what each sees in plain
// words, when it was let in and last used, and a Disconnect button each. `POST …/revoke` (field `client_id`) forgets
// the consent and ends the client's grants (services.openID.disconnect), so its refresh tokens stop working.
//
// Options: none. Disconnecting only takes access away, so it asks no recent sign-in; an unknown or already
// disconnected client changes nothing.
import AccountCore

struct ConnectedAppsPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let grants: OpenIDGrants
    let clients: OpenIDClients
    init(_ core: AccountServices) { (grants, clients) = (core.openID, core.openIDClients) }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        guard context.site.openID != nil else { throw HTTPError.notFound }
        let catalog = context.catalog
        let rows: [[String: Any]] = try grants.connectedApps(accountID: session.accountId).map { app in
            let name = try clients.client(app.clientID)?.name ?? app.clientID
            let seen = app.scopes.filter { $0 != "openid" }
            var row: [String: Any] = [
                "client_id": app.clientID, "name": name, "has_scopes": !seen.isEmpty,
                "scopes": seen.map { ["text": catalog.text("oidc_scope_" + $0)] },
                "granted": SessionsPage.timestamp(app.grantedAt), "granted_iso": SessionsPage.iso(app.grantedAt),
                "revoke_label": catalog.text("apps_revoke_label", ["client": name]),
            ]
            if let used = app.lastUsedAt {
                row["last_used"] = SessionsPage.timestamp(used)
                row["last_used_iso"] = SessionsPage.iso(used)
            } else {
                row["last_used"] = catalog.text("apps_never_used")
            }
            return row
        }
        return try context.layout.settingsPage("settings_apps", section: "apps", ["apps": rows, "has_apps": !rows.isEmpty,
                                                                                  "revoke_path": context.site.paths.path("settings/apps/revoke")])
    }

    func revoke(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        guard context.site.openID != nil else { throw HTTPError.notFound }
        let clientID = context.form["client_id"] ?? ""
        guard OpenIDClientsConfig.isValidID(clientID) else { throw HTTPError.badRequest }
        try grants.disconnect(accountID: session.accountId, clientID: clientID, client: context.client)
        context.flash.set(Flash("apps_revoked"))
        return context.redirect(to: context.site.paths.path("settings/apps"))
    }
}
