// OpenIDTypes.swift: what OpenIDGrants takes and answers (services.openID), and its lifetimes.
//
// Options (OpenIDPolicy, config section `oidc`, mapped by the web layer): code_lifetime (60 s), access_token_lifetime
// (10 min: shorter than a session's idle timeout, so an app in use refreshes, and each refresh keeps the session in
// use), refresh_token_lifetime (30 d, never beyond the Frontdoor session it came from), device_code_lifetime (10 min),
// device_poll_interval (5 s), pushed_request_lifetime (90 s).
import Foundation

/// How long the provider's secrets live.
public struct OpenIDPolicy: Sendable, Equatable {
    public var codeLifetime: TimeInterval
    public var accessTokenLifetime: TimeInterval
    public var refreshTokenLifetime: TimeInterval
    public var deviceCodeLifetime: TimeInterval
    public var devicePollInterval: TimeInterval
    public var pushedRequestLifetime: TimeInterval
    /// A back-channel logout is given up after this many failed attempts (audited).
    public var logoutAttempts: Int
    /// Delivered and abandoned logout deliveries are kept this long (for `audit`-style looking back), then pruned.
    public var logoutKept: TimeInterval

    public init(codeLifetime: TimeInterval = 60, accessTokenLifetime: TimeInterval = 600, refreshTokenLifetime: TimeInterval = 30 * 86400,
                deviceCodeLifetime: TimeInterval = 600, devicePollInterval: TimeInterval = 5, pushedRequestLifetime: TimeInterval = 90,
                logoutAttempts: Int = 8, logoutKept: TimeInterval = 7 * 86400) {
        self.codeLifetime = codeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.deviceCodeLifetime = deviceCodeLifetime
        self.devicePollInterval = devicePollInterval
        self.pushedRequestLifetime = pushedRequestLifetime
        self.logoutAttempts = logoutAttempts
        self.logoutKept = logoutKept
    }

    public static let `default` = OpenIDPolicy()
}

/// Who, and how they proved it, at the moment of the grant.
public struct OpenIDAuthentication: Sendable, Equatable {
    public var accountID: Int64
    /// The digest of the Frontdoor session (its grants end with it).
    public var sessionDigest: Data
    public var authTime: Date
    public var factors: Int

    public init(accountID: Int64, sessionDigest: Data, authTime: Date, factors: Int) {
        self.accountID = accountID
        self.sessionDigest = sessionDigest
        self.authTime = authTime
        self.factors = factors
    }
}

/// What the authorization endpoint asks a code for.
public struct OpenIDCodeRequest: Sendable {
    public var clientID: String
    public var redirectURI: String
    public var scopes: [String]
    public var nonce: String?
    /// PKCE S256 challenge (base64url of SHA-256 of the verifier).
    public var codeChallenge: String?
    public var authentication: OpenIDAuthentication

    public init(clientID: String, redirectURI: String, scopes: [String], nonce: String? = nil, codeChallenge: String? = nil,
                authentication: OpenIDAuthentication) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.authentication = authentication
    }
}

/// One sign-in of one client: the family of its tokens.
public struct OpenIDGrant: Sendable, Equatable {
    public var id: String
    public var clientID: String
    public var accountID: Int64
    public var scopes: [String]
    public var nonce: String?
    public var authTime: Date
    public var factors: Int
    public var sid: String
    public var createdAt: Date
}

/// What the token endpoint answers with.
public struct OpenIDIssued: Sendable {
    public var accessToken: String
    public var refreshToken: String?
    /// Seconds the access token lives.
    public var expiresIn: Int
    /// The scopes of this access token (a refresh may narrow them).
    public var scopes: [String]
    public var grant: OpenIDGrant
}

/// A live access token.
public struct OpenIDAccess: Sendable, Equatable {
    public var grant: OpenIDGrant
    public var scopes: [String]
    public var issuedAt: Date
    public var expiresAt: Date
}

/// An active token as introspection (RFC 7662) tells it.
public struct OpenIDIntrospection: Sendable, Equatable {
    public enum Kind: String, Sendable { case accessToken = "access_token", refreshToken = "refresh_token" }
    public var kind: Kind
    public var grant: OpenIDGrant
    public var scopes: [String]
    public var issuedAt: Date
    public var expiresAt: Date
}

/// An application the person let in (settings → Connected apps).
public struct OpenIDConnectedApp: Sendable, Equatable {
    public var clientID: String
    public var scopes: [String]
    public var grantedAt: Date
    public var lastUsedAt: Date?
}

/// What the device authorization endpoint answers (RFC 8628 §3.2).
public struct OpenIDDeviceStart: Sendable, Equatable {
    public var deviceCode: String
    /// `XXXX-XXXX`.
    public var userCode: String
    public var expiresIn: Int
    public var interval: Int
}

/// A device waiting for a person's yes, for the `device` page.
public struct OpenIDPendingDevice: Sendable, Equatable {
    public var clientID: String
    public var scopes: [String]
}

/// One back-channel logout to send.
public struct OpenIDLogoutDelivery: Sendable, Equatable {
    public var id: Int64
    public var clientID: String
    public var accountID: Int64
    public var sid: String
    public var attempts: Int
}
