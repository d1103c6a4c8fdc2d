// OpenIDClients.swift: the provider's clients (services.openIDClients): those of the config file (`oidc.clients`,
// handed in by the web layer) and those `frontdoor client add` stored in the database.
//
// Options: the configured clients. A client id is unique across both (the config's win a lookup; adding a database
// client with a configured id is refused). A database client's secret is 32 random bytes (base64url), shown once; only
// its SHA-256 is stored. Removing a client ends its grants (queueing their back-channel logouts) and forgets the
// consents to it. Each change is audited (no account: the operator's action).
import Crypto
import Foundation
import Logging

/// The clients the provider knows.
///
/// ```swift
/// let secret = try services.openIDClients.add(OpenIDClient(id: "gitea", redirectURIs: ["https://git.example/callback"]))
/// let gitea = try services.openIDClients.client("gitea")
/// ```
public struct OpenIDClients: Sendable {
    let database: AppDatabase
    let clock: any Clock
    let random: any RandomSource
    let audit: AuditLog
    /// The config file's clients (`source == .configuration`).
    public let configured: [OpenIDClient]

    public init(database: AppDatabase, clock: any Clock, random: any RandomSource, configured: [OpenIDClient] = []) {
        self.database = database
        self.clock = clock
        self.random = random
        self.audit = AuditLog(database: database, clock: clock)
        self.configured = configured
    }

    /// The client `id`: the config's first, then the database's.
    public func client(_ id: String) throws -> OpenIDClient? {
        if let found = configured.first(where: { $0.id == id }) { return found }
        return try database.read { tx in try tx.openIDClients(id: id).first }
    }

    /// Every client: the config's, then the database's (by id) that the config does not shadow.
    public func all() throws -> [OpenIDClient] {
        let stored = try database.read { tx in try tx.openIDClients() }
        let ids = Set(configured.map(\.id))
        return configured + stored.filter { !ids.contains($0.id) }
    }

    /// Stores `client` as a database client; returns its new secret (nil for a public client). Throws
    /// `OpenIDError.clientExists` when the id is taken (config or database), `invalidClient` when it is not a valid id.
    @discardableResult
    public func add(_ client: OpenIDClient) throws -> String? {
        guard OpenIDClient.isValidID(client.id) else { throw OpenIDError.invalidClient }
        guard !configured.contains(where: { $0.id == client.id }) else { throw OpenIDError.clientExists }
        var stored = client
        stored.source = .database
        let secret = client.isPublic ? nil : SecretToken(random: random).encoded
        stored.secretDigests = secret.map { [OpenIDClient.digest(ofSecret: $0)] } ?? []
        let now = clock.now()
        do {
            try database.write { tx in
                try tx.insertOpenIDClient(stored, at: now)
                try audit.record(.openIDClientAdded, accountId: nil, email: nil, client: ClientInfo(), detail: "client \(client.id)", in: tx)
            }
        } catch StorageError.uniqueViolation {
            throw OpenIDError.clientExists
        }
        return secret
    }

    /// Removes a database client, ends its grants and forgets consents to it; false when there is no such database
    /// client. Throws `notADatabaseClient` for a configured one.
    @discardableResult
    public func remove(_ id: String) throws -> Bool {
        guard !configured.contains(where: { $0.id == id }) else { throw OpenIDError.notADatabaseClient }
        let now = clock.now()
        return try database.write { tx in
            guard try tx.deleteOpenIDClient(id: id) else { return false }
            try tx.endOpenIDGrants(where: "clientId = ?", [id], at: now)
            try tx.execute("DELETE FROM openIDConsent WHERE clientId = ?", [id])
            try audit.record(.openIDClientRemoved, accountId: nil, email: nil, client: ClientInfo(), detail: "client \(id)", in: tx)
            return true
        }
    }

    /// A new secret for a confidential database client (the old one stops working at once); returns it.
    /// Throws `notADatabaseClient` for a configured client, `unknownClient` for none, `invalidClient` for a public one.
    public func rotateSecret(_ id: String) throws -> String {
        guard !configured.contains(where: { $0.id == id }) else { throw OpenIDError.notADatabaseClient }
        let secret = SecretToken(random: random).encoded
        try database.write { tx in
            guard let stored = try tx.openIDClients(id: id).first else { throw OpenIDError.unknownClient }
            guard !stored.isPublic, try tx.setOpenIDClientSecret(id: id, digest: OpenIDClient.digest(ofSecret: secret)) else {
                throw OpenIDError.invalidClient
            }
            try audit.record(.openIDClientSecretRotated, accountId: nil, email: nil, client: ClientInfo(), detail: "client \(id)", in: tx)
        }
        return secret
    }
}
