// OAuthProvider.swift: the authorization-code flow against one provider: the authorization URL, the code exchange
// (with PKCE, and for OpenID Connect the ID token's signature, iss, aud, exp and nonce checked) and the profile,
// plus the types they return (ProviderTokens, ProviderIdentity, OAuthError) and PKCE.
// Options: configuration (endpoints, scopes, client), http (CurlHTTPClient in production), now (the clock: token
// expiry, ID token exp/iat, the discovery and JWKS cache, kept 1 h). Steps live in TokenEndpoint.swift,
// Discovery.swift, IDToken.swift and ProfileMapping.swift.
import Crypto
import Encodings
import Foundation

/// The provider's tokens for an account, kept (encrypted) so the operator's backend can call the provider's API.
public struct ProviderTokens: Sendable, Equatable, Codable {
    public var accessToken: String
    public var refreshToken: String?
    public var tokenType: String
    public var scope: String?
    public var expiresAt: Date?

    public init(accessToken: String, refreshToken: String? = nil, tokenType: String = "Bearer", scope: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.scope = scope
        self.expiresAt = expiresAt
    }
}

/// Who the provider says signed in.
public struct ProviderIdentity: Sendable, Equatable {
    /// The configured provider id.
    public var provider: String
    /// The provider's stable user id (`sub`, GitHub's numeric id…), never the email.
    public var subject: String
    public var email: String?
    /// The provider vouches for `email` (OIDC `email_verified`, GitHub's verified flag; Facebook: always).
    public var emailVerified: Bool
    public var name: String?
    /// A handle (GitHub login, X username), when the provider has one.
    public var username: String?
    public var tokens: ProviderTokens
    /// The other addresses the provider vouches for besides `email` (GitHub's address list), at most 20.
    public var otherVerifiedEmails: [String]

    public init(provider: String, subject: String, email: String?, emailVerified: Bool, name: String?, username: String?, tokens: ProviderTokens,
                otherVerifiedEmails: [String] = []) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.username = username
        self.tokens = tokens
        self.otherVerifiedEmails = otherVerifiedEmails
    }
}

/// Why a flow failed, worded for the log (never shown as is to people).
public enum OAuthError: Error, Equatable, Sendable {
    /// The provider could not be reached: connection, timeout, TLS.
    case unreachable(String)
    /// The provider answered with an error (token endpoint `error`, a non-2xx status).
    case provider(String)
    /// The answer was not what the protocol says (bad JSON, missing fields, no subject).
    case invalidResponse(String)
    /// The ID token failed a check: signature, iss, aud, exp, iat, nonce.
    case invalidIDToken(String)
}

/// One configured provider. Thread-safe; caches the discovery document and the JWKS.
///
/// ```swift
/// let github = OAuthProvider(configuration: ProviderConfiguration(id: "github", kind: .github, clientID: "…", clientSecret: "…"),
///                            http: CurlHTTPClient(timeout: 10))
/// let url = try github.authorizationURL(redirectURI: callback, state: state, codeChallenge: PKCE.challenge(for: verifier), nonce: nil)
/// // … the browser comes back to `callback` with code and state …
/// let identity = try github.exchange(code: code, redirectURI: callback, codeVerifier: verifier, nonce: nil)
/// ```
public final class OAuthProvider: Sendable {
    public let configuration: ProviderConfiguration
    let http: any HTTPClient
    let now: @Sendable () -> Date
    /// OpenID Connect only: the issuer's discovery document and keys.
    let metadata: OpenIDMetadata?

    public init(configuration: ProviderConfiguration, http: any HTTPClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.http = http
        self.now = now
        self.metadata = configuration.usesOpenID ? OpenIDMetadata(issuer: configuration.issuer, http: http, now: now) : nil
    }

    /// Where to send the browser: response_type=code, client_id, redirect_uri, scope, state, code_challenge (S256)
    /// and, for OpenID Connect, nonce. May fetch the discovery document.
    public func authorizationURL(redirectURI: String, state: String, codeChallenge: String, nonce: String?) throws -> String {
        var parameters = [("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", redirectURI),
                          ("scope", configuration.scopes.joined(separator: " ")), ("state", state),
                          ("code_challenge", codeChallenge), ("code_challenge_method", "S256")]
        if configuration.usesOpenID, let nonce { parameters.append(("nonce", nonce)) }
        return FormEncoding.appending(parameters, to: try endpoint(\.authorizationEndpoint, \.authorizationEndpoint))
    }

    /// Exchanges `code` for tokens and reads who signed in; checks the ID token against `nonce` for OpenID Connect
    /// (nil: the ID token must carry no nonce).
    public func exchange(code: String, redirectURI: String, codeVerifier: String, nonce: String?) throws -> ProviderIdentity {
        let answer = try tokenEndpoint().exchange(code: code, redirectURI: redirectURI, codeVerifier: codeVerifier, now: now())
        let tokens = answer.tokens
        let id = configuration.id
        switch configuration.kind {
        case .oidc, .google:
            guard let metadata, let idToken = answer.idToken else {
                throw OAuthError.invalidIDToken("the token endpoint gave no id_token")
            }
            let check = IDTokenCheck(issuer: configuration.issuer,
                                     alternateIssuers: configuration.kind == .google ? ["accounts.google.com"] : [],
                                     clientID: configuration.clientID, nonce: nonce, now: now())
            let claims = try check.verify(idToken) { refetch in try metadata.keys(refetch: refetch) }
            let userInfo = try endpoint(\.userInfoEndpoint, \.userInfoEndpoint, required: false)
            return try ProfileMapping.openID(claims: claims, tokens: tokens, userInfoURL: userInfo, provider: id, http: http)
        case .github:
            return try ProfileMapping.github(tokens: tokens, userURL: try endpoint(\.userInfoEndpoint, nil),
                                             emailsURL: try endpoint(\.emailsEndpoint, nil), provider: id, http: http)
        case .facebook:
            return try ProfileMapping.facebook(tokens: tokens, meURL: try endpoint(\.userInfoEndpoint, nil), provider: id, http: http)
        case .twitter:
            return try ProfileMapping.twitter(tokens: tokens, meURL: try endpoint(\.userInfoEndpoint, nil), provider: id, http: http)
        }
    }

    /// New tokens from `tokens.refreshToken` (the refresh token is kept when the answer has none).
    /// Throws `OAuthError.provider` when there is no refresh token or the provider refuses it.
    public func refresh(_ tokens: ProviderTokens) throws -> ProviderTokens {
        try tokenEndpoint().refresh(tokens, now: now())
    }

    private func tokenEndpoint() throws -> TokenEndpoint {
        TokenEndpoint(url: try endpoint(\.tokenEndpoint, \.tokenEndpoint), clientID: configuration.clientID,
                      clientSecret: configuration.clientSecret, auth: configuration.tokenEndpointAuth, http: http)
    }

    /// The configured endpoint; when empty, the discovery document's (OpenID Connect) or the preset's.
    func endpoint(_ configured: KeyPath<ProviderConfiguration, String>, _ discovered: KeyPath<DiscoveryDocument, String>?,
                          required: Bool = true) throws -> String {
        var url = configuration[keyPath: configured]
        if url.isEmpty, let metadata, let discovered { url = try metadata.document()[keyPath: discovered] }
        if url.isEmpty, !configuration.usesOpenID {
            url = ProviderConfiguration(id: "", kind: configuration.kind, clientID: "", clientSecret: "")[keyPath: configured]
        }
        if url.isEmpty, required { throw OAuthError.invalidResponse("provider \(configuration.id) has no URL for \(configured)") }
        return url
    }
}

/// PKCE (RFC 7636), S256 only.
public enum PKCE {
    /// base64url(SHA-256(verifier)) without padding.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }
}
