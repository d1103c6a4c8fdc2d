// RequestContext+Social.swift: what the social sign-in pages share: the browser's binding cookie, the pending
// identity's cookie, the redirect URI registered at each provider, and the provider buttons on a page.
//
// Cookies (HttpOnly, SameSite=Lax, until the browser closes), host-bound (CookieJar): over https named `__Host-<name>`
// with Path=/, no Domain and Secure, so a sibling subdomain cannot plant its own binding or pending identity in this
// browser (a login CSRF into the picker or auth/link); over plain http under the base path. Sent twice: read as absent.
//   frontdoor_oauth            32 random bytes binding a flow's `state` (and a pending identity) to this browser;
//                              Lax, so the provider's top-level redirect back to the callback carries it
//   frontdoor_social_pending   the pending identity's token between the callback and auth/email or auth/link
//   frontdoor_social_pick      the picker's pending identities' tokens (dot-separated) between the callback and auth/pick
import AccountCore
import Encodings
import Foundation
import OAuthClient

extension RequestContext {
    static let socialBindingCookie = "frontdoor_oauth"
    static let socialPendingCookie = "frontdoor_social_pending"
    static let socialPickCookie = "frontdoor_social_pick"

    /// This browser's binding bytes; with `create`, made and queued as a cookie when missing.
    func socialBinding(create: Bool) -> [UInt8]? {
        if let value = cookies.hostBoundValue(Self.socialBindingCookie),
           let bytes = Base64URL.decode(value, allowingPadding: true), bytes.count == 32 { return bytes }
        guard create else { return nil }
        let bytes = core.random.bytes(32)
        cookies.setHostBound(Self.socialBindingCookie, Base64URL.encode(bytes))
        return bytes
    }

    /// The pending identity's token, if this browser has one.
    var socialPendingToken: String? { cookies.hostBoundValue(Self.socialPendingCookie).flatMap { $0.isEmpty ? nil : $0 } }

    /// This browser's pending identity (auth/email, auth/link), or nil when it has none or it expired or was used.
    func socialPending() throws -> PendingIdentity? {
        guard let token = socialPendingToken, let binding = socialBinding(create: false) else { return nil }
        do { return try core.social.pending(token: token, binding: binding) } catch AccountError.refused { return nil }
    }

    /// No pending identity to go on with: back to the sign-in page with "That sign-in attempt has expired".
    func socialPendingExpired() -> Response {
        setSocialPending(nil)
        flash.set(Flash("social_pending_invalid", kind: .alert))
        return redirect(to: site.paths.signIn())
    }

    func setSocialPending(_ token: String?) {
        cookies.setHostBound(Self.socialPendingCookie, token ?? "", maxAge: token == nil ? 0 : 600)
    }

    /// The picker's tokens, if this browser has any (at most 10).
    var socialPickTokens: [String] { (cookies.hostBoundValue(Self.socialPickCookie) ?? "").split(separator: ".").prefix(10).map(String.init) }

    func setSocialPick(_ tokens: [String]) {
        cookies.setHostBound(Self.socialPickCookie, tokens.joined(separator: "."), maxAge: tokens.isEmpty ? 0 : 600)
    }

    /// The accounts signed in in this browser: the active one first, then the waiting ones.
    func browserAccountIds() throws -> [Int64] {
        let active = try session().map { [$0.accountId] } ?? []
        return active + (try otherAccounts().map(\.session.accountId))
    }

    /// The callback address registered at the provider: public_url + base path + /auth/<id>/callback.
    func socialRedirectURI(_ provider: String) -> String {
        site.configuration.publicURL + site.paths.path("auth/\(provider)/callback")
    }

    /// The display name of a configured provider (its id when no longer configured).
    func providerName(_ id: String) -> String { site.configuration.social.displayName(of: id) }

    /// Template values for the provider buttons (`partials/social_buttons`): one POST form per provider in `ids`
    /// (default: every configured one), labelled with the catalog's `labelKey` ("Sign in with {provider}").
    func socialButtons(labelKey: String, purpose: SocialPurpose = .signIn, returnTo: String? = nil, invite: String? = nil,
                       ids: [String]? = nil) -> [String: Any]? {
        let providers = site.social.providers.map(\.configuration).filter { ids?.contains($0.id) ?? true }
        guard !providers.isEmpty else { return nil }
        let catalog = self.catalog
        let buttons: [[String: Any]] = providers.map { provider in
            var button: [String: Any] = ["id": provider.id, "action": site.paths.path("auth/\(provider.id)"),
                                         "purpose": purpose.rawValue,
                                         "label": catalog.text(labelKey, ["provider": provider.displayName])]
            if let returnTo, !returnTo.isEmpty { button["rd"] = returnTo }
            if let invite, !invite.isEmpty { button["invite"] = invite }
            return button
        }
        return ["buttons": buttons]
    }
}
