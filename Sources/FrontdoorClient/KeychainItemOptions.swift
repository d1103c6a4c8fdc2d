// KeychainItemOptions.swift: how KeychainCredentialsStore's items are made and found, as plain values (compiled and
// tested on every platform; only KeychainCredentialsStore, on Apple platforms, turns them into Security's kSec… keys).
//
// Options:
//   service          kSecAttrService, "Frontdoor" by default: every item of the store carries it; removeAll removes those
//   accessGroup      kSecAttrAccessGroup, to share with the team's other apps; nil (default): this app only
//   synchronizable   kSecAttrSynchronizable: false (default) keeps items on this device; true lets iCloud Keychain carry
//                    them to the person's other devices (BMCredentials' enableCloudSync; needs the Keychain Sharing
//                    entitlement, and works as a local item where iCloud Keychain is off)
//   accessibility    kSecAttrAccessible; nil (default): after the first unlock (usable in the background), on this
//                    device only when not synchronizable. A "this device only" class never syncs, so asking for both
//                    is refused (`check()`, run before every write) instead of silently keeping the item local.
// Lookups and deletions match synchronizable and local items alike (kSecAttrSynchronizableAny), so changing the
// option finds, replaces and removes the items written before; a write sets the option's value.
import Foundation

/// The attributes of a KeychainCredentialsStore's items.
public struct KeychainItemOptions: Sendable, Equatable {
    /// kSecAttrAccessible's classes.
    public enum Accessibility: String, Sendable, CaseIterable {
        case whenUnlocked, afterFirstUnlock
        case whenUnlockedThisDeviceOnly, afterFirstUnlockThisDeviceOnly, whenPasscodeSetThisDeviceOnly

        /// Whether items of this class stay on this device (never in backups or iCloud Keychain).
        public var isThisDeviceOnly: Bool {
            switch self {
            case .whenUnlocked, .afterFirstUnlock: return false
            case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: return true
            }
        }
    }

    /// An attribute of a query or an item.
    enum Attribute: Hashable {
        case itemClass, service, account, accessGroup, accessible, synchronizable
    }

    /// An attribute's value.
    enum Value: Equatable {
        case genericPassword
        case text(String)
        case flag(Bool)
        /// kSecAttrSynchronizableAny: matches items of either kind.
        case anySynchronizable
        case accessibility(Accessibility)
    }

    public var service: String
    public var accessGroup: String?
    public var synchronizable: Bool
    public var accessibility: Accessibility?

    public init(service: String = "Frontdoor", accessGroup: String? = nil, synchronizable: Bool = false,
                accessibility: Accessibility? = nil) {
        self.service = service
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessibility = accessibility
    }

    /// The class items are written with.
    public var effectiveAccessibility: Accessibility {
        accessibility ?? (synchronizable ? .afterFirstUnlock : .afterFirstUnlockThisDeviceOnly)
    }

    /// Options that cannot be written: a synchronizable item of a "this device only" class.
    public struct Refused: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Throws `Refused` when items cannot be written with these options.
    public func check() throws {
        guard synchronizable, effectiveAccessibility.isThisDeviceOnly else { return }
        throw Refused(description: "a synchronizable keychain item cannot be \(effectiveAccessibility.rawValue): "
                      + "choose whenUnlocked or afterFirstUnlock")
    }

    /// What finds this store's items (all of them, or the one of `account`), synchronizable or not.
    func query(account: String? = nil) -> [Attribute: Value] {
        var query: [Attribute: Value] = [.itemClass: .genericPassword, .service: .text(service), .synchronizable: .anySynchronizable]
        if let accessGroup { query[.accessGroup] = .text(accessGroup) }
        if let account { query[.account] = .text(account) }
        return query
    }

    /// What a write sets besides the data.
    func writtenAttributes() -> [Attribute: Value] {
        [.accessible: .accessibility(effectiveAccessibility), .synchronizable: .flag(synchronizable)]
    }

    /// The attributes of a new item for `account`.
    func newItem(account: String) -> [Attribute: Value] {
        query(account: account).merging(writtenAttributes()) { _, written in written }
    }
}
