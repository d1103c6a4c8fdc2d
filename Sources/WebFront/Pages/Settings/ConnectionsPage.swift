// ConnectionsPage.swift: `GET <base>/settings/connections`: the providers linked to the account (name, the address
// they gave, when linked and last used), an Unlink button each, and a Link button per configured provider not linked
// yet (a `link` flow, see SocialStartAction). `POST …/unlink` (field `provider`) unlinks one.
//
// Linking and unlinking change how the account signs in, so both need a recent sign-in (`session.reauthenticate_after`),
// like address changes. Unlinking the last way to sign in (no password, no other provider) is refused.
import AccountCore
import Foundation

struct ConnectionsPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let socialLinks: SocialLinks
    init(_ core: AccountServices) { socialLinks = core.socialLinks }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        let links = socialLinks
        let linked = try links.identities(accountId: session.accountId)
        let catalog = context.catalog
        let rows: [[String: Any]] = linked.map { identity in
            var row: [String: Any] = ["provider": identity.provider, "name": context.providerName(identity.provider),
                                      "email": identity.email ?? "", "display_name": identity.displayName,
                                      "linked": SessionsPage.timestamp(identity.linkedAt), "linked_iso": SessionsPage.iso(identity.linkedAt)]
            if let used = identity.lastUsedAt {
                row["last_used"] = SessionsPage.timestamp(used)
                row["last_used_iso"] = SessionsPage.iso(used)
            } else {
                row["last_used"] = catalog.text("connections_never")
            }
            return row
        }
        let available = context.site.social.providers.map(\.configuration.id).filter { id in !linked.contains { $0.provider == id } }
        var values: [String: Any] = ["identities": rows, "has_identities": !rows.isEmpty,
                                     "no_password": try !links.hasPassword(accountId: session.accountId)]
        if !available.isEmpty {
            values["social"] = context.socialButtons(labelKey: "connections_link_button", purpose: .link, ids: available)
        }
        return try context.layout.settingsPage("settings_connections", section: "connections", values)
    }

    func unlink(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: context.site.paths.path("settings/connections"))
        let provider = context.form["provider"] ?? ""
        do {
            try socialLinks.unlink(accountId: session.accountId, provider: provider, client: context.client)
            context.flash.set(Flash("social_unlinked", provider: provider))
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert, provider: provider))
        } catch AccountError.notFound {
            // Already unlinked (another tab): the list shows the truth.
        }
        return context.redirect(to: context.site.paths.path("settings/connections"))
    }
}
