// OAuthProvider.swift: the authorization-code flow against one provider: the authorization URL, the code exchange
// (with PKCE, and for OpenID Connect the ID token's signature, iss, aud, exp and nonce checked) and the profile.
// (Foundation stub: helper A implements it; the public shape below is the contract.)
import Crypto
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

    public init(provider: String, subject: String, email: String?, emailVerified: Bool, name: String?, username: String?, tokens: ProviderTokens) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.username = username
        self.tokens = tokens
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
public final class OAuthProvider: Sendable {
    public let configuration: ProviderConfiguration
    let http: any HTTPClient
    let now: @Sendable () -> Date

    public init(configuration: ProviderConfiguration, http: any HTTPClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.http = http
        self.now = now
    }

    /// Where to send the browser: response_type=code, client_id, redirect_uri, scope, state, code_challenge (S256)
    /// and, for OpenID Connect, nonce. May fetch the discovery document.
    public func authorizationURL(redirectURI: String, state: String, codeChallenge: String, nonce: String?) throws -> String {
        throw OAuthError.unreachable("not implemented")
    }

    /// Exchanges `code` for tokens and reads who signed in; checks the ID token against `nonce` for OpenID Connect.
    public func exchange(code: String, redirectURI: String, codeVerifier: String, nonce: String?) throws -> ProviderIdentity {
        throw OAuthError.unreachable("not implemented")
    }

    /// New tokens from `tokens.refreshToken` (the refresh token is kept when the answer has none).
    public func refresh(_ tokens: ProviderTokens) throws -> ProviderTokens {
        throw OAuthError.unreachable("not implemented")
    }
}

/// PKCE (RFC 7636), S256 only.
public enum PKCE {
    /// base64url(SHA-256(verifier)) without padding.
    public static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
