// ProviderTokenSignInAPI.swift: `POST <base>/v1/users/auth/{facebook,google,x}` (`…/auth/twitter` is the same as `x`):
// sign-in with a token a native app got from the provider's SDK: {"user":{"provider","oauth_token","uid"?,"email"?}} →
// 201 user with a new API token. X also takes {"user":{"code","code_verifier","redirect_uri"}}: an authorization code
// the app got with our client id (PKCE), redeemed here with our client credentials.
//
// Options: the `social.providers` entry for the provider: the one whose id is the route's (`facebook`, `google`, `x`
// or `twitter`), else the first with that preset; its `tokeninfo_endpoint` and `native_client_ids` (see OAuthClient's
// NativeToken.swift). The token is checked with the provider (never trusted as sent); `uid`, when sent, must be the
// subject the provider names; the `email` sent is ignored (only the provider's verified address counts). X gives no
// address, so X signs in only to an account that already has X linked (web sign-in, or the settings' connections).
// X's access tokens cannot be bound to our client (no introspection: NativeToken+X.swift), so X's `oauth_token` form
// is refused (422 `api_provider_token_form_off`, X not asked) unless the entry sets `native_access_tokens: true`; its
// `code` form is bound. Only that form's tokens replace the ones kept for the backend: a token an app got from a
// provider's SDK (Google's ID or access token, Facebook's, X's bare one) is never stored, since it would replace the
// web sign-in's refresh token (and an ID token is no access token at all). Likewise only the code form's API token
// counts as a recent sign-in (SocialSignIn+Native.swift): a bare token is a bearer credential that may have come from
// another app. Then the behaviour table of SocialSignIn+Native.swift. Every refusal is a 422 error object naming the
// provider; the provider unreachable is 502. An account with a second factor answers as the password sign-in does:
// 401 `second_factor_required` with a challenge, finished at `v1/users/sign_in/second_factor` (SecondFactorAPI).
import AccountCore
import Foundation
import OAuthClient

/// Sign-in with a provider's token from a native app.
struct ProviderTokenSignInAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let social: SocialSignIn
    init(_ core: AccountServices) { social = core.social }

    /// - Parameter ids: the provider ids this route prefers, in order (`["x", "twitter"]`); default the kind's name.
    func submit(_ context: RequestContext, kind: ProviderKind, ids: [String] = []) throws -> Response {
        let form = try context.api.fields()
        let catalog = context.catalog
        let providers = context.site.social.providers.filter { $0.configuration.kind == kind }
        let preferred = ids.isEmpty ? [kind.rawValue] : ids
        guard let provider = preferred.lazy.compactMap({ id in providers.first { $0.configuration.id == id } }).first ?? providers.first else {
            throw APIError(status: 422, message: catalog.text("api_provider_not_configured", ["provider": kind.preset.displayName]))
        }
        let id = provider.configuration.id, name = provider.configuration.displayName
        let invalid = APIError(status: 422, message: catalog.text("api_provider_token_invalid", ["provider": name]))
        let code = kind == .twitter ? form["code"] ?? "" : ""
        let token = form["oauth_token"] ?? ""
        guard !token.isEmpty || !code.isEmpty else { throw invalid }
        if kind == .twitter, code.isEmpty, !provider.configuration.nativeAccessTokens {
            context.site.logger.info("provider token refused", metadata: ["provider": "\(id)", "reason": "access tokens are off"])
            throw APIError(status: 422, message: catalog.text("api_provider_token_form_off", ["provider": name]))
        }
        let identity: ProviderIdentity
        do {
            identity = code.isEmpty ? try provider.identity(fromNativeToken: token)
                : try provider.identity(fromNativeCode: code, codeVerifier: form["code_verifier"] ?? "", redirectURI: form["redirect_uri"] ?? "")
        } catch OAuthError.unreachable(let reason) {
            context.site.logger.warning("provider token not checked", metadata: ["provider": "\(id)", "reason": "\(reason)"])
            throw APIError(status: 502, message: catalog.text("api_provider_unreachable", ["provider": name]))
        } catch {
            context.site.logger.info("provider token refused", metadata: ["provider": "\(id)", "reason": "\(error)"])
            throw invalid
        }
        if let uid = form["uid"], !uid.isEmpty, uid != identity.subject {
            context.site.logger.info("provider token refused", metadata: ["provider": "\(id)", "reason": "uid is not the token's subject"])
            throw invalid
        }
        // Only a code redeemed with our client secret is bound to us: its tokens are kept and its sign-in is recent.
        let bound = !code.isEmpty
        let external = ExternalIdentity(provider: id, subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified,
                                        displayName: identity.name ?? identity.username ?? "",
                                        tokens: bound ? try JSONEncoder().encode(identity.tokens) : nil,
                                        tokenExpiresAt: bound ? identity.tokens.expiresAt : nil)
        let (grant, _) = try context.api.call(provider: name) {
            try social.signInWithProviderToken(external, client: context.client, recentSignIn: bound)
        }
        return try context.api.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 201)
    }
}
