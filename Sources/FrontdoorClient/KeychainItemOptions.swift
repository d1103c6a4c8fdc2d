// KeychainItemOptions.swift: how KeychainCredentialsStore's items are made and found, as plain values (compiled and
// tested on every platform; only KeychainCredentialsStore, on Apple platforms, turns them into Security's kSec… keys).
//
// Options:
//   service          kSecAttrService, "Frontdoor" by default: every item of the store carries it; removeAll removes those
//   accessGroup      kSecAttrAccessGroup, to share with the team's other apps; nil (default): this app only
//   synchronizable   kSecAttrSynchronizable: false (default) keeps items on this device; true lets iCloud Keychain carry
//                    them to the person's other devices (BMCredentials' enableCloudSync; needs the Keychain Sharing
//                    entitlement, and works as a local item where iCloud Keychain is off)
//   backgroundAccess false (default): items are readable only while the device is unlocked, i.e. while the app is in
//                    use (kSecAttrAccessibleWhenUnlocked, BMCredentials' default); true: also in the background after
//                    the first unlock (AfterFirstUnlock, BMCredentials' enableBackgroundAccess)
//   accessibility    kSecAttrAccessible, overriding the two above; nil (default): whenUnlocked (afterFirstUnlock with
//                    backgroundAccess), on this device only when not synchronizable. A "this device only" class never
//                    syncs, so asking for both is refused (`check()`, run before every write) instead of silently
//                    keeping the item local.
// Residences (keys "residence:<email>") are written on this device only, whatever the options: a residence is the
// device the mailed link allowed, and another device is another residence, so its token must never reach iCloud
// Keychain (not synchronizable, the "this device only" form of the class).
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

        /// The same class on this device only.
        public var thisDeviceOnly: Accessibility {
            switch self {
            case .whenUnlocked: return .whenUnlockedThisDeviceOnly
            case .afterFirstUnlock: return .afterFirstUnlockThisDeviceOnly
            case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: return self
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
    public var backgroundAccess: Bool
    public var accessibility: Accessibility?

    public init(service: String = "Frontdoor", accessGroup: String? = nil, synchronizable: Bool = false,
                backgroundAccess: Bool = false, accessibility: Accessibility? = nil) {
        self.service = service
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.backgroundAccess = backgroundAccess
        self.accessibility = accessibility
    }

    /// The class items are written with (residences: its "this device only" form, see `writtenAttributes(account:)`).
    public var effectiveAccessibility: Accessibility {
        if let accessibility { return accessibility }
        let chosen: Accessibility = backgroundAccess ? .afterFirstUnlock : .whenUnlocked
        return synchronizable ? chosen : chosen.thisDeviceOnly
    }

    /// Whether the item of `account` must stay on this device whatever the options (a residence's token).
    static func staysOnThisDevice(_ account: String) -> Bool { account.hasPrefix(FrontdoorClient.residencePrefix) }

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

    /// What a write of `account`'s item sets besides the data.
    func writtenAttributes(account: String) -> [Attribute: Value] {
        guard Self.staysOnThisDevice(account) else {
            return [.accessible: .accessibility(effectiveAccessibility), .synchronizable: .flag(synchronizable)]
        }
        return [.accessible: .accessibility(effectiveAccessibility.thisDeviceOnly), .synchronizable: .flag(false)]
    }

    /// The attributes of a new item for `account`.
    func newItem(account: String) -> [Attribute: Value] {
        query(account: account).merging(writtenAttributes(account: account)) { _, written in written }
    }
}
