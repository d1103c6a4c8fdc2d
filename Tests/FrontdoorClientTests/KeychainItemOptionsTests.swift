// KeychainItemOptionsTests.swift: the keychain items' attributes as KeychainCredentialsStore asks Security for them
// (the part of the store that runs everywhere): this device only by default, iCloud Keychain as a choice, lookups that
// find items of either kind, and the one combination Security cannot keep refused up front.
@testable import FrontdoorClient
import Testing

@Suite struct KeychainItemOptionsTests {
    @Test func byDefaultItemsStayOnThisDeviceAndAreUsableAfterTheFirstUnlock() throws {
        let options = KeychainItemOptions()
        try options.check()
        #expect(options.service == "Frontdoor")
        #expect(options.effectiveAccessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(options.writtenAttributes() == [.accessible: .accessibility(.afterFirstUnlockThisDeviceOnly), .synchronizable: .flag(false)])
        #expect(options.newItem(account: "default") == [
            .itemClass: .genericPassword, .service: .text("Frontdoor"), .account: .text("default"),
            .accessible: .accessibility(.afterFirstUnlockThisDeviceOnly), .synchronizable: .flag(false),
        ])
    }

    @Test func synchronizableItemsGoToICloudKeychainWithAClassThatSyncs() throws {
        let options = KeychainItemOptions(service: "com.example.app", accessGroup: "TEAM.com.example.shared", synchronizable: true)
        try options.check()
        #expect(options.effectiveAccessibility == .afterFirstUnlock)
        #expect(options.newItem(account: "account:ann@example.com") == [
            .itemClass: .genericPassword, .service: .text("com.example.app"), .accessGroup: .text("TEAM.com.example.shared"),
            .account: .text("account:ann@example.com"), .accessible: .accessibility(.afterFirstUnlock), .synchronizable: .flag(true),
        ])
        try KeychainItemOptions(synchronizable: true, accessibility: .whenUnlocked).check()
    }

    @Test func lookupsFindLocalAndSynchronizableItemsSoTheOptionCanChange() {
        for synchronizable in [false, true] {
            let options = KeychainItemOptions(synchronizable: synchronizable)
            #expect(options.query() == [.itemClass: .genericPassword, .service: .text("Frontdoor"), .synchronizable: .anySynchronizable])
            #expect(options.query(account: "default")[.account] == .text("default"))
            #expect(options.query(account: "default")[.synchronizable] == .anySynchronizable)
            #expect(options.query()[.accessGroup] == nil)
        }
    }

    @Test func aSynchronizableItemOfAThisDeviceOnlyClassIsRefused() {
        for accessibility in KeychainItemOptions.Accessibility.allCases {
            let options = KeychainItemOptions(synchronizable: true, accessibility: accessibility)
            if accessibility.isThisDeviceOnly {
                #expect(throws: KeychainItemOptions.Refused.self) { try options.check() }
            } else {
                #expect(throws: Never.self) { try options.check() }
            }
            #expect(throws: Never.self) { try KeychainItemOptions(accessibility: accessibility).check() }
        }
        #expect(KeychainItemOptions.Accessibility.allCases.filter(\.isThisDeviceOnly).count == 3)
    }
}
