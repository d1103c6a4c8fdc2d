// ProviderConfiguration.swift: one configured sign-in provider (config `social.providers`, read by WebFront's
// SocialProvidersConfig), with its preset's defaults (ProviderPresets.swift) filled in by `init`.
// Fields: id, kind (the preset), displayName, clientID, clientSecret, issuer (OpenID Connect), scopes, the
// authorization / token / userinfo / emails endpoints (empty for OpenID Connect: from discovery), tokenEndpointAuth,
// and for native apps' tokens (NativeToken.swift) tokenInfoEndpoint, nativeClientIDs and nativeAccessTokens.
import Foundation

/// Which protocol family and preset a provider uses.
public enum ProviderKind: String, CaseIterable, Sendable {
    /// Any OpenID Connect provider: issuer URL → discovery document, JWKS, ID token.
    case oidc
    /// Google (OpenID Connect, issuer https://accounts.google.com).
    case google
    /// GitHub (OAuth 2.0, profile from `/user` and `/user/emails`).
    case github
    /// Facebook (OAuth 2.0, profile from Graph `me?fields=id,name,email`).
    case facebook
    /// X / Twitter (OAuth 2.0 authorization code with PKCE, profile from `/2/users/me`; gives no email).
    case twitter
}

/// How the client authenticates at the token endpoint.
public enum TokenEndpointAuth: String, CaseIterable, Sendable {
    /// HTTP Basic with client id and secret.
    case basic
    /// `client_id` and `client_secret` in the form body.
    case post
}

/// One provider as configured (config `social.providers`), preset defaults filled in by `init`.
public struct ProviderConfiguration: Sendable, Equatable {
    /// `[a-z0-9_-]{1,32}`: the URL segment (`<base>/auth/<id>`) and the name stored with linked identities.
    public var id: String
    public var kind: ProviderKind
    /// Button label and name in messages ("GitHub"); default from the preset, for `oidc` the id.
    public var displayName: String
    public var clientID: String
    public var clientSecret: String
    /// OpenID Connect issuer (oidc: required; google: https://accounts.google.com; others: empty).
    public var issuer: String
    public var scopes: [String]
    /// The preset's endpoints, or overrides; empty: the discovery document's (OpenID Connect), else the preset's.
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var userInfoEndpoint: String
    /// GitHub only: the addresses endpoint (default https://api.github.com/user/emails).
    public var emailsEndpoint: String
    public var tokenEndpointAuth: TokenEndpointAuth
    /// Native apps' tokens (NativeToken.swift): Google's tokeninfo or Facebook's debug_token endpoint (from the preset;
    /// empty for the other kinds: X's tokens go to its users/me, oidc and github take none).
    public var tokenInfoEndpoint: String
    /// Client ids of the operator's native apps whose tokens are accepted besides `clientID` (Google: the iOS/Android
    /// client ids; Facebook: other app ids).
    public var nativeClientIDs: [String] = []
    /// X only: whether a native app may sign in with a bare user access token (false by default). X cannot tell which
    /// app a token was issued to, so another X app's token for the same person passes too: the code form is the bound one.
    public var nativeAccessTokens = false

    /// A provider with `kind`'s defaults: display name (the id for `oidc`), issuer, scopes, endpoints, token auth.
    public init(id: String, kind: ProviderKind, clientID: String, clientSecret: String) {
        let preset = kind.preset
        self.id = id
        self.kind = kind
        self.displayName = preset.displayName.isEmpty ? id : preset.displayName
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.issuer = preset.issuer
        self.scopes = preset.scopes
        self.authorizationEndpoint = preset.authorizationEndpoint
        self.tokenEndpoint = preset.tokenEndpoint
        self.userInfoEndpoint = preset.userInfoEndpoint
        self.emailsEndpoint = preset.emailsEndpoint
        self.tokenEndpointAuth = preset.tokenEndpointAuth
        self.tokenInfoEndpoint = preset.tokenInfoEndpoint
    }

    /// Whether the provider speaks OpenID Connect (a nonce is sent and an ID token checked).
    public var usesOpenID: Bool { kind == .oidc || kind == .google }
}
