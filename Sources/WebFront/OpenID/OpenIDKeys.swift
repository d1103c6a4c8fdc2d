// OpenIDKeys.swift: the OpenID Connect provider's signing keys: RS256 (RSA-2048), kept by AccountCore's
// SigningKeys(purpose: "openid") in the database, so every host of one database signs with the same key and publishes the
// same JWKS. Made on first start (`ensureKey`, and by the first signature if start-up did not); rotated by
// `frontdoor keys rotate openid`. Stored: the private key as PEM, the public one as its JWK (JSON, with kid, use, alg).
// The kid is the key's RFC 7638 thumbprint: stable, derived from the key itself, the same on every host.
// Options: grace (`oidc.key_grace`): how long a retired key stays in the JWKS and verifies, so tokens signed just
// before a rotation keep verifying until they expire (the config keeps it ≥ id_token_lifetime).
// Workers notice a rotation made by another process by the current key's id (one indexed SELECT per signature), as
// BrowserID's IdentityProvider does; the JWKS is rebuilt only when the set of published key ids changes.
import AccountCore
import Foundation
import JOSE
import Locking

/// Signs the provider's tokens and publishes the keys that check them.
///
/// ```swift
/// let keys = OpenIDKeys(keys: SigningKeys(database: db, purpose: "openid", clock: clock), grace: 86400)
/// try keys.ensureKey()
/// let idToken = try keys.sign(["iss": issuer, "sub": "42"], type: "JWT")
/// let claims = try keys.verify(idToken)   // signature only: exp, aud… are the caller's
/// ```
public final class OpenIDKeys: Sendable {
    /// The purpose the keys are stored under.
    public static let purpose = "openid"

    public let keys: SigningKeys
    /// How long a retired key stays published.
    public let grace: TimeInterval
    private let current = Locked<(id: Int64, key: JWSSigningKey, kid: String)?>(nil)
    /// Published keys parsed once per stored key (a stored key never changes).
    private let parsed = Locked<[Int64: JSONWebKey]>([:])
    /// The JWKS document for the last set of published key ids.
    private let document = Locked<(ids: [Int64], json: Data)?>(nil)

    public init(keys: SigningKeys, grace: TimeInterval) {
        self.keys = keys
        self.grace = grace
    }

    /// The keys of `database` under purpose "openid".
    public convenience init(database: AppDatabase, clock: any Clock, grace: TimeInterval) {
        self.init(keys: SigningKeys(database: database, purpose: Self.purpose, clock: clock), grace: grace)
    }

    /// Makes the first key unless one exists (start-up; safe when several processes start at once).
    @discardableResult
    public func ensureKey() throws -> StoredSigningKey {
        if let existing = try keys.current() { return existing }
        let key = try JWSSigningKey.generate(.rs256)
        return try keys.addFirst(privateKey: key.pemRepresentation, publicKey: Self.published(key).jsonText)
    }

    /// A new current key; the previous one stays in the JWKS (and verifies) for `grace`.
    @discardableResult
    public func rotate() throws -> StoredSigningKey {
        let key = try JWSSigningKey.generate(.rs256)
        return try keys.rotate(privateKey: key.pemRepresentation, publicKey: Self.published(key).jsonText)
    }

    /// `claims` as a compact JWS signed with the current key: RS256, header kid (and `typ` when given).
    public func sign(_ claims: [String: Any], type: String? = nil) throws -> String {
        let (key, kid) = try signingKey()
        return try JWS.sign(claims, key: key, keyID: kid, type: type)
    }

    /// The claims of `token` once a published key verified its signature (RS256, its kid). No time or audience check:
    /// an `id_token_hint` may have expired. Throws `JOSEError` for anything else.
    public func verify(_ token: String) throws -> [String: Any] {
        try JWS.verified(token, keys: try publishedKeys()).payload
    }

    /// The current key, then the keys retired less than `grace` ago.
    public func publishedKeys() throws -> [JSONWebKey] {
        try keys.published(grace: grace).map { stored in
            if let known = parsed.withLock({ $0[stored.id] }) { return known }
            let key = try JSONWebKey(jsonText: stored.publicKey)
            parsed.withLock { $0[stored.id] = key }
            return key
        }
    }

    /// The JWKS object, `{"keys": [...]}`.
    public func jwks() throws -> [String: Any] {
        ["keys": try publishedKeys().map(\.members)]
    }

    /// The JWKS as JSON text (keys sorted), rebuilt only when the published key ids change.
    public func jwksJSON() throws -> Data {
        let stored = try keys.published(grace: grace)
        let ids = stored.map(\.id)
        if let cached = document.withLock({ $0 }), cached.ids == ids { return cached.json }
        if stored.isEmpty { try ensureKey(); return try jwksJSON() }
        let json = try JSONSerialization.data(withJSONObject: try jwks(), options: [.sortedKeys, .withoutEscapingSlashes])
        document.withLock { $0 = (ids, json) }
        return json
    }

    /// The current private key and its kid, parsed once per key; made if none exists yet.
    private func signingKey() throws -> (JWSSigningKey, String) {
        let id = try keys.currentID()
        if let id, let cached = current.withLock({ $0 }), cached.id == id { return (cached.key, cached.kid) }
        let stored = try keys.current() ?? ensureKey()
        let key = try JWSSigningKey(pemRepresentation: stored.privateKey)
        let kid = try JSONWebKey(jsonText: stored.publicKey).kid ?? key.publicKey.thumbprint
        current.withLock { $0 = (stored.id, key, kid) }
        return (key, kid)
    }

    /// The public JWK stored beside a new key: kid = its RFC 7638 thumbprint.
    static func published(_ key: JWSSigningKey) -> JSONWebKey {
        key.publicKey.with(kid: key.publicKey.thumbprint)
    }
}
