// OpenIDClient.swift: an application that signs people in through Frontdoor's OpenID Connect provider, and the
// provider's errors.
//
// Options (per client; the config file's `oidc.clients` or `frontdoor client add`): id, name, secret digests (none for a
// public client), redirect URIs (exact match; a public client's loopback IP ones on any port, RFC 8252 7.3), post-logout redirect URIs, scopes it may ask, `allow` rule, second factor
// required, first party (no consent page), subject type (public | pairwise), back-channel logout URI, API sign-in.
import Crypto
import Foundation

/// One relying party.
public struct OpenIDClient: Sendable, Equatable {
    public enum Source: String, Sendable { case configuration, database }
    public enum SubjectType: String, Sendable { case `public`, pairwise }

    public var id: String
    public var name: String
    /// SHA-256 of each accepted secret; empty for a public client.
    public var secretDigests: [Data]
    public var isPublic: Bool
    public var redirectURIs: [String]
    public var postLogoutRedirectURIs: [String]
    public var scopes: [String]
    public var allow: String
    public var requiresSecondFactor: Bool
    public var firstParty: Bool
    public var subjectType: SubjectType
    public var backchannelLogoutURI: String?
    public var apiSignIn: Bool
    public var source: Source
    public var createdAt: Date?

    /// The scopes a client may ask when none are named.
    public static let defaultScopes = ["openid", "profile", "email", "groups"]

    public init(id: String, name: String? = nil, secretDigests: [Data] = [], isPublic: Bool = false, redirectURIs: [String] = [],
                postLogoutRedirectURIs: [String] = [], scopes: [String] = OpenIDClient.defaultScopes, allow: String = "",
                requiresSecondFactor: Bool = false, firstParty: Bool = false, subjectType: SubjectType = .public,
                backchannelLogoutURI: String? = nil, apiSignIn: Bool = false, source: Source = .configuration, createdAt: Date? = nil) {
        self.id = id
        self.name = name ?? id
        self.secretDigests = secretDigests
        self.isPublic = isPublic
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.scopes = scopes
        self.allow = allow
        self.requiresSecondFactor = requiresSecondFactor
        self.firstParty = firstParty
        self.subjectType = subjectType
        self.backchannelLogoutURI = backchannelLogoutURI
        self.apiSignIn = apiSignIn
        self.source = source
        self.createdAt = createdAt
    }

    /// The digest stored for `secret`.
    public static func digest(ofSecret secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Whether the authorization request may send the browser back to `uri`: one of the registered URIs exactly, or — a
    /// native app listening on a loopback IP takes whatever port is free (RFC 8252 7.3) — for a public client, a
    /// registered `http://127.0.0.1/…` or `http://[::1]/…` with any port, all else (path, query) the same. `localhost`
    /// is a name, not a loopback IP: exact only.
    public func allowsRedirect(_ uri: String) -> Bool {
        if redirectURIs.contains(uri) { return true }
        guard isPublic, let asked = Self.loopbackWithoutPort(uri) else { return false }
        return redirectURIs.contains { Self.loopbackWithoutPort($0) == asked }
    }

    /// `uri` without its port when it is plain http to 127.0.0.1 or [::1] with no fragment; nil otherwise.
    public static func loopbackWithoutPort(_ uri: String) -> String? {
        guard var parts = URLComponents(string: uri), parts.scheme == "http", parts.fragment == nil, parts.user == nil,
              parts.password == nil, ["127.0.0.1", "[::1]", "::1"].contains(parts.host ?? "") else { return nil }
        parts.port = nil
        return parts.string
    }

    /// Whether `secret` is one of this client's: its digest is compared with every stored digest, each in constant time,
    /// without stopping at a match. A public client accepts none.
    public func acceptsSecret(_ secret: String) -> Bool {
        guard !isPublic, !secretDigests.isEmpty else { return false }
        let offered = [UInt8](Self.digest(ofSecret: secret))
        var matched: UInt8 = 0
        for stored in secretDigests {
            let bytes = [UInt8](stored)
            guard bytes.count == offered.count else { continue }
            var difference: UInt8 = 0
            for index in 0..<bytes.count { difference |= bytes[index] ^ offered[index] }
            matched |= difference == 0 ? 1 : 0
        }
        return matched == 1
    }

    /// A client id the provider accepts: `[A-Za-z0-9._-]{1,64}`.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || byte == 0x2e || byte == 0x5f
                || byte == 0x2d
        }
    }
}

/// What the provider refuses; the web layer maps each to an RFC 6749 / 8628 JSON error.
public enum OpenIDError: Error, Equatable {
    /// invalid_grant: the code, refresh token or device code is unknown, expired, used, revoked or not this client's
    /// (the text says which, for the log only).
    case invalidGrant(String)
    case invalidClient
    case invalidScope
    case accessDenied
    case authorizationPending
    case slowDown
    case expiredToken
    case clientExists
    case unknownClient
    case notADatabaseClient
}
