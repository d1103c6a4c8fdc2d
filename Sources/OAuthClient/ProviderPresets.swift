// ProviderPresets.swift: each preset's defaults (name, issuer, endpoints, scopes, token endpoint authentication).
//   oidc      name = the id; issuer required; endpoints from discovery; scopes "openid email profile"; basic
//   google    "Google"; issuer https://accounts.google.com, endpoints from discovery; "openid email profile"; basic
//   github    "GitHub"; github.com/login/oauth/{authorize,access_token}, api.github.com/user and /user/emails;
//             "read:user user:email"; post
//   facebook  "Facebook"; www.facebook.com/v19.0/dialog/oauth, graph.facebook.com/v19.0/oauth/access_token and
//             /me?fields=id,name,email; "email public_profile"; post
//   twitter   "X"; x.com/i/oauth2/authorize, api.x.com/2/oauth2/token and /2/users/me;
//             "users.read tweet.read offline.access"; basic
import Foundation

/// The defaults a preset fills in; an empty endpoint means "from the discovery document" (OpenID Connect).
public struct ProviderPreset: Sendable, Equatable {
    /// The display name; empty for `oidc` (the provider's id is used).
    public var displayName: String
    public var issuer: String
    public var scopes: [String]
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var userInfoEndpoint: String
    public var emailsEndpoint: String
    public var tokenEndpointAuth: TokenEndpointAuth
    /// Where a native app's token is checked (google: https://oauth2.googleapis.com/tokeninfo; facebook:
    /// https://graph.facebook.com/debug_token; others: none).
    public var tokenInfoEndpoint: String = ""
}

extension ProviderKind {
    /// This kind's defaults.
    public var preset: ProviderPreset {
        switch self {
        case .oidc:
            ProviderPreset(displayName: "", issuer: "", scopes: ["openid", "email", "profile"], authorizationEndpoint: "",
                           tokenEndpoint: "", userInfoEndpoint: "", emailsEndpoint: "", tokenEndpointAuth: .basic)
        case .google:
            ProviderPreset(displayName: "Google", issuer: "https://accounts.google.com", scopes: ["openid", "email", "profile"],
                           authorizationEndpoint: "", tokenEndpoint: "", userInfoEndpoint: "", emailsEndpoint: "",
                           tokenEndpointAuth: .basic, tokenInfoEndpoint: "https://oauth2.googleapis.com/tokeninfo")
        case .github:
            ProviderPreset(displayName: "GitHub", issuer: "", scopes: ["read:user", "user:email"],
                           authorizationEndpoint: "https://github.com/login/oauth/authorize",
                           tokenEndpoint: "https://github.com/login/oauth/access_token",
                           userInfoEndpoint: "https://api.github.com/user", emailsEndpoint: "https://api.github.com/user/emails",
                           tokenEndpointAuth: .post)
        case .facebook:
            ProviderPreset(displayName: "Facebook", issuer: "", scopes: ["email", "public_profile"],
                           authorizationEndpoint: "https://www.facebook.com/v19.0/dialog/oauth",
                           tokenEndpoint: "https://graph.facebook.com/v19.0/oauth/access_token",
                           userInfoEndpoint: "https://graph.facebook.com/v19.0/me?fields=id,name,email", emailsEndpoint: "",
                           tokenEndpointAuth: .post, tokenInfoEndpoint: "https://graph.facebook.com/debug_token")
        case .twitter:
            ProviderPreset(displayName: "X", issuer: "", scopes: ["users.read", "tweet.read", "offline.access"],
                           authorizationEndpoint: "https://x.com/i/oauth2/authorize", tokenEndpoint: "https://api.x.com/2/oauth2/token",
                           userInfoEndpoint: "https://api.x.com/2/users/me", emailsEndpoint: "", tokenEndpointAuth: .basic)
        }
    }
}
