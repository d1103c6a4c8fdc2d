// NativeToken+X.swift: who an X (Twitter) user is, for a native app's POST v1/users/auth/x, in one of two forms.
//   access token   GET users/me (the configured userinfo endpoint, else https://api.x.com/2/users/me) with the token as
//                  Bearer → data.id, data.username, data.name (ProfileMapping.twitter). This proves the token is live
//                  and names its user, but NOT which app it was issued to: X has no introspection endpoint (nothing
//                  like Facebook's debug_token or Google's tokeninfo `aud`), so a token another X app obtained for the
//                  same person passes too (token substitution). What binds: the next form. So this form is refused
//                  (before X is asked) unless the operator switched it on (`nativeAccessTokens`, config
//                  `native_access_tokens`), and WebFront never lets its session count as a recent sign-in.
//   code           an authorization code the app got with this provider's client id (PKCE S256, its own registered
//                  redirect URI): redeemed at the token endpoint with our client credentials (HTTP Basic), so X itself
//                  refuses a code issued to another app; the answer's tokens (refresh token with offline.access) are
//                  what the backend keeps. Then users/me as above.
// Errors as NativeToken.swift's: OAuthError.unreachable, .provider (refused, empty), .invalidResponse; no message carries
// the token, the code, the verifier or the client secret.
import Foundation

extension OAuthProvider {
    /// The identity behind an authorization code a native app got with this provider's client id (X only): redeemed
    /// with our client credentials and the app's PKCE `codeVerifier` and `redirectURI`, so only a code issued to our
    /// client passes. `tokens` of the answer are the token endpoint's (with the refresh token, when granted).
    ///
    /// ```swift
    /// let found = try x.identity(fromNativeCode: code, codeVerifier: verifier, redirectURI: "com.example.app:/x-callback")
    /// ```
    public func identity(fromNativeCode code: String, codeVerifier: String, redirectURI: String) throws -> ProviderIdentity {
        let secrets = [code, codeVerifier, configuration.clientSecret]
        do {
            guard configuration.kind == .twitter else { throw OAuthError.provider("\(configuration.id) takes no native codes") }
            guard !code.isEmpty, !codeVerifier.isEmpty, !redirectURI.isEmpty else {
                throw OAuthError.provider("\(configuration.id): code, code_verifier and redirect_uri are all needed")
            }
            return try exchange(code: code, redirectURI: redirectURI, codeVerifier: codeVerifier, nonce: nil)
        } catch let error as OAuthError {
            throw error.redacting(secrets)
        }
    }

    /// X's users/me for a bare access token (see the header: live and whose, not which app's), when the form is on.
    func twitterIdentity(_ token: String) throws -> ProviderIdentity {
        guard configuration.nativeAccessTokens else {
            throw OAuthError.provider("\(configuration.id) takes access tokens only with native_access_tokens (use the code form)")
        }
        return try ProfileMapping.twitter(tokens: ProviderTokens(accessToken: token), meURL: try endpoint(\.userInfoEndpoint, nil),
                                          provider: configuration.id, http: http)
    }
}
