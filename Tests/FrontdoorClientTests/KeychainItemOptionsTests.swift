// KeychainItemOptionsTests.swift: the keychain items' attributes as KeychainCredentialsStore asks Security for them
// (the part of the store that runs everywhere): readable only while the device is unlocked and on this device only by
// default, background access and iCloud Keychain as choices, residence tokens on this device whatever is chosen, lookups
// that find items of either kind, and the one combination Security cannot keep refused up front.
@testable import FrontdoorClient
import Testing

@Suite struct KeychainItemOptionsTests {
    @Test func byDefaultItemsStayOnThisDeviceAndAreReadableOnlyWhileItIsUnlocked() throws {
        let options = KeychainItemOptions()
        try options.check()
        #expect(options.service == "Frontdoor" && !options.backgroundAccess)
        #expect(options.effectiveAccessibility == .whenUnlockedThisDeviceOnly)
        #expect(options.writtenAttributes(account: "default") == [.accessible: .accessibility(.whenUnlockedThisDeviceOnly),
                                                                  .synchronizable: .flag(false)])
        #expect(options.newItem(account: "default") == [
            .itemClass: .genericPassword, .service: .text("Frontdoor"), .account: .text("default"),
            .accessible: .accessibility(.whenUnlockedThisDeviceOnly), .synchronizable: .flag(false),
        ])
    }

    @Test func backgroundAccessIsTheAppsChoice() throws {
        #expect(KeychainItemOptions(backgroundAccess: true).effectiveAccessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(KeychainItemOptions(synchronizable: true, backgroundAccess: true).effectiveAccessibility == .afterFirstUnlock)
        #expect(KeychainItemOptions(backgroundAccess: true, accessibility: .whenPasscodeSetThisDeviceOnly).effectiveAccessibility
                == .whenPasscodeSetThisDeviceOnly, "an explicit class wins")
    }

    @Test func synchronizableItemsGoToICloudKeychainWithAClassThatSyncs() throws {
        let options = KeychainItemOptions(service: "com.example.app", accessGroup: "TEAM.com.example.shared", synchronizable: true)
        try options.check()
        #expect(options.effectiveAccessibility == .whenUnlocked)
        #expect(options.newItem(account: "account:ann@example.com") == [
            .itemClass: .genericPassword, .service: .text("com.example.app"), .accessGroup: .text("TEAM.com.example.shared"),
            .account: .text("account:ann@example.com"), .accessible: .accessibility(.whenUnlocked), .synchronizable: .flag(true),
        ])
        try KeychainItemOptions(synchronizable: true, accessibility: .afterFirstUnlock).check()
    }

    @Test func residenceTokensNeverLeaveTheDeviceEvenWithICloudKeychainOn() throws {
        // Another device is another residence: the mailed link allowed this device only.
        for background in [false, true] {
            let options = KeychainItemOptions(synchronizable: true, backgroundAccess: background)
            let key = FrontdoorClient.residenceKey("ann@example.com")
            let expected: KeychainItemOptions.Accessibility = background ? .afterFirstUnlockThisDeviceOnly : .whenUnlockedThisDeviceOnly
            #expect(options.writtenAttributes(account: key) == [.accessible: .accessibility(expected), .synchronizable: .flag(false)])
            #expect(options.newItem(account: key)[.synchronizable] == .flag(false))
            #expect(options.newItem(account: "account:ann@example.com")[.synchronizable] == .flag(true))
        }
        let explicit = KeychainItemOptions(synchronizable: true, accessibility: .whenUnlocked)
        #expect(explicit.writtenAttributes(account: FrontdoorClient.residenceKey("bob@example.com"))[.accessible]
                == .accessibility(.whenUnlockedThisDeviceOnly))
        #expect(KeychainItemOptions.Accessibility.allCases.allSatisfy { $0.thisDeviceOnly.isThisDeviceOnly })
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
