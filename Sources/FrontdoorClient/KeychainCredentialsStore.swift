// KeychainCredentialsStore.swift: credentials as generic password items in the Keychain (Apple platforms only).
//
// Options: `service` (kSecAttrService, "Frontdoor" by default: every item of this store carries it, and
// removeAll removes exactly those), `accessGroup` (kSecAttrAccessGroup, to share with other apps of the team; nil:
// this app only), `accessible` (kSecAttrAccessible, after the first unlock on this device only by default: usable in
// the background, never in backups or on another device, like a residence should be). One item per key
// (kSecAttrAccount), its data the JSON of the `Credentials`. Compiled only where the Security framework exists.
#if canImport(Security)
import Foundation
import Security

/// Credentials kept in the Keychain, one generic password item per key.
///
/// ```swift
/// let store = KeychainCredentialsStore(service: "com.example.myapp")
/// let client = FrontdoorClient(configuration: .init(serverURL: server), store: store)
/// ```
public struct KeychainCredentialsStore: CredentialsStore {
    /// A Keychain call failed with `status` (an errSec… code from Security).
    public struct Failure: Error, Equatable {
        public var status: OSStatus
    }

    public var service: String
    public var accessGroup: String?
    public var accessible: String

    public init(service: String = "Frontdoor", accessGroup: String? = nil,
                accessible: String = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessible = accessible
    }

    public func credentials(forKey key: String) throws -> Credentials? {
        var query = baseQuery
        query[kSecAttrAccount as String] = key
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Failure(status: status) }
        return try JSONDecoder().decode(Credentials.self, from: data)
    }

    public func set(_ credentials: Credentials, forKey key: String) throws {
        let data = try JSONEncoder().encode(credentials)
        var query = baseQuery
        query[kSecAttrAccount as String] = key
        let update: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: accessible]
        let status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecSuccess { return }
        guard status == errSecItemNotFound else { throw Failure(status: status) }
        query.merge(update) { _, new in new }
        let added = SecItemAdd(query as CFDictionary, nil)
        guard added == errSecSuccess else { throw Failure(status: added) }
    }

    public func remove(forKey key: String) throws {
        var query = baseQuery
        query[kSecAttrAccount as String] = key
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }

    public func removeAll() throws {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }

    public func keys() throws -> [String] {
        var query = baseQuery
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { throw Failure(status: status) }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// The attributes every item of this store has.
    private var baseQuery: [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }
}
#endif
