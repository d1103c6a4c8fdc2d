// PasskeysPage.swift: `GET <base>/settings/passkeys`: the account's passkeys (name, when added and last used, a warning
// when one's signature counter went back), a Rename and a Remove form each, and the form that adds one (its script,
// static/js/passkeys.js, asks the browser; see PasskeyActions for the JSON endpoints). `POST …/rename` (fields `id`,
// `name`) and `POST …/remove` (field `id`).
//
// Adding and removing change how the account signs in, so both need a recent sign-in (`session.reauthenticate_after`),
// like linking a provider; removing the last way to sign in is refused. Renaming needs only the session.
import AccountCore
import Foundation

struct PasskeysPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let passkeys: Passkeys
    init(_ core: AccountServices) { passkeys = core.passkeys }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        let catalog = context.catalog
        let rows: [[String: Any]] = try passkeys.list(accountId: session.accountId).map { passkey in
            var row: [String: Any] = ["id": String(passkey.id), "name": passkey.name,
                                      "created": SessionsPage.timestamp(passkey.createdAt), "created_iso": SessionsPage.iso(passkey.createdAt),
                                      "rename_label": catalog.text("passkeys_rename_label", ["name": passkey.name]),
                                      "remove_label": catalog.text("passkeys_remove_label", ["name": passkey.name])]
            if let used = passkey.lastUsedAt {
                row["last_used"] = SessionsPage.timestamp(used)
                row["last_used_iso"] = SessionsPage.iso(used)
            } else {
                row["last_used"] = catalog.text("passkeys_never")
            }
            if let wentBack = passkey.counterWentBackAt {
                row["counter_warning"] = catalog.text("passkeys_counter_went_back", ["date": SessionsPage.timestamp(wentBack)])
            }
            return row
        }
        return try context.layout.settingsPage("settings_passkeys", section: "passkeys", [
            "passkeys": rows, "has_passkeys": !rows.isEmpty,
            "passkey_messages": PasskeyActions.scriptMessages(catalog),
            "passkey_paths": PasskeyActions.paths(context),
        ])
    }

    func rename(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        let form = context.form
        do {
            try passkeys.rename(accountId: session.accountId, id: Int64(form["id"] ?? "") ?? 0, name: form["name"] ?? "",
                                client: context.client)
            context.flash.set(Flash("passkey_renamed"))
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert))
        } catch AccountError.notFound {
            // Removed meanwhile (another tab): the list shows the truth.
        }
        return context.redirect(to: context.site.paths.path("settings/passkeys"))
    }

    func remove(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: context.site.paths.path("settings/passkeys"))
        do {
            try passkeys.remove(accountId: session.accountId, id: Int64(context.form["id"] ?? "") ?? 0, client: context.client)
            context.flash.set(Flash("passkey_removed"))
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert))
        } catch AccountError.notFound {
            // Already removed (another tab): the list shows the truth.
        }
        return context.redirect(to: context.site.paths.path("settings/passkeys"))
    }
}
