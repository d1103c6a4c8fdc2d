// IdentityProvider.swift: Frontdoor as a BrowserID identity provider: its root key, certificates, support document.
// Options (config section `browserid`): issuer, certificate_lifetime, ephemeral_certificate_lifetime.
// The RSA-2048 root key is made on first start and kept in the database (file mode 0600), never in a file or a log.
// After `keys rotate` the previous key stays published (and trusted by /verify) for one certificate lifetime,
// so certificates it signed keep verifying until they expire. Workers notice a rotation by the current key's id.
import AccountCore
import BrowserID
import Foundation
import Locking

/// Signs certificates for verified addresses and publishes the keys that check them.
public final class IdentityProvider: Sendable {
    /// The issuer name written into certificates (`iss`).
    public let issuer: String
    public let keys: SigningKeys
    /// Paths published in the support document.
    public let authenticationPath: String
    public let provisioningPath: String
    let certificateLifetime: TimeInterval
    let ephemeralLifetime: TimeInterval
    private let loaded = Locked<(id: Int64, key: RSASigningKey)?>(nil)
    /// Published keys parsed once per key id (a stored key never changes; parsing its decimal modulus is costly).
    private let parsed = Locked<[Int64: PublicKey]>([:])

    public init(issuer: String, keys: SigningKeys, authenticationPath: String, provisioningPath: String,
                certificateLifetime: TimeInterval = 86400, ephemeralLifetime: TimeInterval = 3600) {
        self.issuer = issuer
        self.keys = keys
        self.authenticationPath = authenticationPath
        self.provisioningPath = provisioningPath
        self.certificateLifetime = certificateLifetime
        self.ephemeralLifetime = ephemeralLifetime
    }

    /// Makes the root key unless one exists (start-up; safe when several processes start at once).
    @discardableResult
    public func ensureKey() throws -> StoredSigningKey {
        if let current = try keys.current() { return current }
        let key = try RSASigningKey.generate()
        return try keys.addFirst(privateKey: key.pemRepresentation, publicKey: key.publicKey.jsonText)
    }

    /// A new root key; the old one stays published for one certificate lifetime.
    @discardableResult
    public func rotate() throws -> StoredSigningKey {
        let key = try RSASigningKey.generate()
        return try keys.rotate(privateKey: key.pemRepresentation, publicKey: key.publicKey.jsonText)
    }

    /// A certificate binding `publicKey` to `email` (which the caller checked is a verified address of the signed-in person).
    public func certify(email: String, publicKey: PublicKey, ephemeral: Bool) throws -> String {
        let now = keys.clock.now()
        let lifetime = ephemeral ? ephemeralLifetime : certificateLifetime
        return try IdentityCertificate.sign(email: email, publicKey: publicKey, issuer: issuer, issuedAt: now,
                                            expiresAt: now.addingTimeInterval(lifetime), key: try signingKey())
    }

    /// The public keys verifiers may meet: the current one first, then recently retired ones.
    public func publishedKeys() throws -> [PublicKey] {
        try keys.published(grace: certificateLifetime).map { stored in
            if let known = parsed.withLock({ $0[stored.id] }) { return known }
            let key = try PublicKey(jsonText: stored.publicKey)
            parsed.withLock { $0[stored.id] = key }
            return key
        }
    }

    /// `/.well-known/browserid`.
    public func supportDocument() throws -> SupportDocument {
        let published = try publishedKeys()
        guard let current = published.first else { throw BrowserIDError(reason: "no root key") }
        return .support(publicKey: current, keys: published, authentication: authenticationPath, provisioning: provisioningPath)
    }

    /// The current private key, parsed once per key: one indexed SELECT per call notices a rotation by another process.
    private func signingKey() throws -> RSASigningKey {
        let id = try keys.currentID()
        if let id, let cached = loaded.withLock({ $0 }), cached.id == id { return cached.key }
        guard let stored = try keys.current() else { throw BrowserIDError(reason: "no root key") }
        let key = try RSASigningKey(pemRepresentation: stored.privateKey)
        loaded.withLock { $0 = (stored.id, key) }
        return key
    }
}

/// Support documents for the verifier: Frontdoor's own from the database (no HTTP to itself), others fetched.
struct FrontdoorSupportDocuments: SupportDocumentSource {
    let provider: IdentityProvider
    let others: any SupportDocumentSource

    func supportDocument(for issuer: String) throws -> SupportDocument {
        if issuer.lowercased() == provider.issuer.lowercased() { return try provider.supportDocument() }
        return try others.supportDocument(for: issuer)
    }

    func supportDocument(for issuer: String, before deadline: Date) throws -> SupportDocument {
        if issuer.lowercased() == provider.issuer.lowercased() { return try provider.supportDocument() }
        return try others.supportDocument(for: issuer, before: deadline)
    }
}
