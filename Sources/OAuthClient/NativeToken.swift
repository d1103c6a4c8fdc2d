// NativeToken.swift: who a token belongs to that a native app got from the provider's own SDK (the JSON API's
// POST v1/users/auth/{facebook,google}), checked with the provider, never trusted as sent.
//   google    an ID token (three dot-separated parts) → GET tokeninfo?id_token=…; otherwise an access token →
//             GET tokeninfo?access_token=…. `aud` (or `azp`) must be `clientID` or one of `nativeClientIDs`, `sub`
//             present, not expired; an ID token's `iss` must be accounts.google.com (with or without https://).
//             email and email_verified ("true"/true) from the answer; name from userinfo when there is one.
//   facebook  GET debug_token?input_token=…&access_token=<clientID>|<clientSecret> → data.is_valid true, data.app_id
//             `clientID` or one of `nativeClientIDs`, data.user_id; then Graph `me` with the token (ProfileMapping),
//             whose id must equal data.user_id.
//   others    OAuthError.provider("… takes no native tokens").
// Errors: OAuthError.unreachable (connection), .provider (refused or invalid token, wrong app), .invalidResponse.
import Foundation

extension OAuthProvider {
    /// The identity behind `token`, checked with the provider; `tokens` of the answer carries `token` as access token
    /// (for an ID token too: there is no other token).
    public func identity(fromNativeToken token: String) throws -> ProviderIdentity {
        throw OAuthError.provider("\(configuration.id) takes no native tokens")   // TODO(helper D)
    }
}
