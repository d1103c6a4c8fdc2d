// KeychainCredentialsStore.swift: credentials as generic password items in the Keychain (Apple platforms only).
//
// Options: `options` (KeychainItemOptions.swift: `service`, "Frontdoor" by default, which every item carries and
// removeAll removes exactly; `accessGroup`, nil: this app only; `synchronizable`, false: this device only, true:
// iCloud Keychain carries the items to the person's other devices, residences excepted, which never leave this device;
// `backgroundAccess`, false: readable only while the device is unlocked; `accessibility`, nil: whenUnlocked, or
// afterFirstUnlock with backgroundAccess, on this device only unless synchronizable). One item per key
// (kSecAttrAccount), its data the JSON of the `Credentials`, so the default and keyed credentials (several accounts,
// residences) are items side by side. Lookups match synchronizable and local items alike. Compiled only where the
// Security framework exists.
#if canImport(Security)
import Foundation
import Security

/// Credentials kept in the Keychain, one generic password item per key.
///
/// ```swift
/// let store = KeychainCredentialsStore(service: "com.example.myapp", synchronizable: true)   // iCloud Keychain (residences stay here)
/// let client = FrontdoorClient(configuration: .init(serverURL: server), store: store)
/// ```
public struct KeychainCredentialsStore: CredentialsStore {
    /// A Keychain call failed with `status` (an errSec… code from Security).
    public struct Failure: Error, Equatable {
        public var status: OSStatus
    }

    public var options: KeychainItemOptions

    public init(options: KeychainItemOptions) { self.options = options }

    public init(service: String = "Frontdoor", accessGroup: String? = nil, synchronizable: Bool = false, backgroundAccess: Bool = false) {
        self.init(options: KeychainItemOptions(service: service, accessGroup: accessGroup, synchronizable: synchronizable,
                                               backgroundAccess: backgroundAccess))
    }

    public func credentials(forKey key: String) throws -> Credentials? {
        var query = Self.dictionary(options.query(account: key))
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Failure(status: status) }
        return try JSONDecoder().decode(Credentials.self, from: data)
    }

    public func set(_ credentials: Credentials, forKey key: String) throws {
        try options.check()
        let data = try JSONEncoder().encode(credentials)
        var update = Self.dictionary(options.writtenAttributes(account: key))
        update[kSecValueData as String] = data
        let status = SecItemUpdate(Self.dictionary(options.query(account: key)) as CFDictionary, update as CFDictionary)
        if status == errSecSuccess { return }
        guard status == errSecItemNotFound else { throw Failure(status: status) }
        var item = Self.dictionary(options.newItem(account: key))
        item[kSecValueData as String] = data
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw Failure(status: added) }
    }

    public func remove(forKey key: String) throws {
        let status = SecItemDelete(Self.dictionary(options.query(account: key)) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }

    public func removeAll() throws {
        let status = SecItemDelete(Self.dictionary(options.query()) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }

    public func keys() throws -> [String] {
        var query = Self.dictionary(options.query())
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { throw Failure(status: status) }
        return Set(items.compactMap { $0[kSecAttrAccount as String] as? String }).sorted()
    }

    /// The Security dictionary of `attributes`.
    private static func dictionary(_ attributes: [KeychainItemOptions.Attribute: KeychainItemOptions.Value]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (attribute, value) in attributes {
            let key: CFString
            switch attribute {
            case .itemClass: key = kSecClass
            case .service: key = kSecAttrService
            case .account: key = kSecAttrAccount
            case .accessGroup: key = kSecAttrAccessGroup
            case .accessible: key = kSecAttrAccessible
            case .synchronizable: key = kSecAttrSynchronizable
            }
            switch value {
            case .genericPassword: result[key as String] = kSecClassGenericPassword
            case .text(let text): result[key as String] = text
            case .flag(let flag): result[key as String] = NSNumber(value: flag)   // a CFBoolean
            case .anySynchronizable: result[key as String] = kSecAttrSynchronizableAny
            case .accessibility(let accessibility): result[key as String] = constant(accessibility)
            }
        }
        return result
    }

    private static func constant(_ accessibility: KeychainItemOptions.Accessibility) -> CFString {
        switch accessibility {
        case .whenUnlocked: return kSecAttrAccessibleWhenUnlocked
        case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
        case .whenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: return kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
