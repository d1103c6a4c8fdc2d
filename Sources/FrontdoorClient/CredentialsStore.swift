// CredentialsStore.swift: what a client remembers between launches, and where.
//
// Options: none. A store keeps `Credentials` under string keys; `Credentials.defaultKey` ("default") holds the
// signed-in account's, other keys are the client's own (residences use "residence:<lowercased email>"). Stores:
//   MemoryCredentialsStore    kept in memory only (tests, apps that sign in on every launch)
//   FileCredentialsStore      one JSON file, mode 0600, written atomically (Linux, command-line tools)
//   KeychainCredentialsStore  generic password items in the Keychain (only where Security exists)
import Foundation
import Locking

/// One set of credentials: who, the secret that proves it, the server it is for, and anything else worth keeping.
///
/// For a signed-in account `username` is the address sent as `X-User-Email`, `secret` the API token and
/// `extra["id"]` the account id; a residence keeps its id and state in `extra`.
public struct Credentials: Codable, Sendable, Equatable {
    /// The key of the signed-in account's credentials in a store.
    public static let defaultKey = "default"

    public var username: String
    public var secret: String
    public var url: URL
    public var extra: [String: String]

    public init(username: String, secret: String, url: URL, extra: [String: String] = [:]) {
        self.username = username
        self.secret = secret
        self.url = url
        self.extra = extra
    }
}

/// Where credentials are kept. Implementations are safe to use from several threads at once.
public protocol CredentialsStore: Sendable {
    /// The credentials under `key`, or nil when there are none.
    func credentials(forKey key: String) throws -> Credentials?
    /// Stores `credentials` under `key`, replacing what was there.
    func set(_ credentials: Credentials, forKey key: String) throws
    /// Removes the credentials under `key`; nothing happens when there are none.
    func remove(forKey key: String) throws
    /// Removes every key of this store.
    func removeAll() throws
    /// The keys in use, sorted.
    func keys() throws -> [String]
}

extension CredentialsStore {
    /// The signed-in account's credentials.
    public func defaultCredentials() throws -> Credentials? { try credentials(forKey: Credentials.defaultKey) }

    /// Stores the signed-in account's credentials.
    public func setDefaultCredentials(_ credentials: Credentials) throws { try set(credentials, forKey: Credentials.defaultKey) }

    /// Forgets the signed-in account's credentials.
    public func removeDefaultCredentials() throws { try remove(forKey: Credentials.defaultKey) }
}

/// Credentials kept in memory for the life of the object.
public final class MemoryCredentialsStore: CredentialsStore, @unchecked Sendable {
    private let lock = Lock()
    private var items: [String: Credentials] = [:]

    public init() {}

    public func credentials(forKey key: String) throws -> Credentials? { lock.withLock { items[key] } }
    public func set(_ credentials: Credentials, forKey key: String) throws { lock.withLock { items[key] = credentials } }
    public func remove(forKey key: String) throws { _ = lock.withLock { items.removeValue(forKey: key) } }
    public func removeAll() throws { lock.withLock { items.removeAll() } }
    public func keys() throws -> [String] { lock.withLock { items.keys.sorted() } }
}
