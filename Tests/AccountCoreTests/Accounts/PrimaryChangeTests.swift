import AccountRules
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

/// The JSON API's email change: primary now, or once confirmed (EmailAddresses+PrimaryChange.swift, Confirmation.swift).
struct PrimaryChangeTests {
    let client = ClientInfo(userAgent: "app", remoteAddress: "192.0.2.1")

    /// An account whose primary address (Ann@Example.com) is verified.
    func account(_ fixture: TestFixture) throws -> Int64 {
        let accountId = try fixture.signUp("Ann@Example.com").session.accountId
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        return accountId
    }

    func primary(_ fixture: TestFixture, _ accountId: Int64) throws -> String? {
        try fixture.database.read { tx in
            try tx.value(String.self, "SELECT address FROM emailAddress WHERE accountId = ? AND isPrimary", [accountId])
        }
    }

    /// Addresses marked to become primary when confirmed.
    func marked(_ fixture: TestFixture) throws -> [String] {
        try fixture.database.read { tx in
            try tx.values(String.self, "SELECT address FROM emailAddress WHERE makePrimaryOnVerify ORDER BY id")
        }
    }

    // MARK: Paths of the header's table

    @Test func thePrimaryAddressItselfChangesNothing() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        #expect(try fixture.services.addresses.requestPrimaryChange(to: " ann@EXAMPLE.com ", accountId: ann, client: client) == false)
        #expect(try fixture.count("emailAddress") == 1 && fixture.count("mailQueue") == 0)
        #expect(try fixture.audits(.emailChanged).isEmpty)
    }

    @Test func aNewAddressIsAddedMarkedAndMailedThenBecomesPrimaryWhenConfirmed() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        #expect(try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: client))
        #expect(try primary(fixture, ann) == "Ann@Example.com", "not before the confirmation")
        #expect(try marked(fixture) == ["new@example.com"])
        #expect(try fixture.services.apiTokens.summary(of: ann).pendingEmail == "new@example.com")
        #expect(try fixture.mailKinds(to: "new@example.com") == ["address_verification"])
        #expect(try fixture.audits(.emailAdded).count == 1)

        // When the link is followed
        #expect(try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "new@example.com"), client: client)
                == "new@example.com")
        // Then it is primary, the old primary is told, and nothing waits any more
        #expect(try primary(fixture, ann) == "new@example.com")
        #expect(try marked(fixture).isEmpty)
        #expect(try fixture.services.apiTokens.summary(of: ann).pendingEmail == nil)
        #expect(try fixture.services.apiTokens.summary(of: ann).email == "new@example.com")
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["primary_address_changed"])
        #expect(try fixture.audits(.emailChanged).map { $0["detail"] as String } == ["primary, confirmed"])
        #expect(try fixture.audits(.emailConfirmed).count == 1)
    }

    @Test func aVerifiedAddressOfTheAccountBecomesPrimaryAtOnce() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        _ = try fixture.database.write { tx in
            try tx.execute("""
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                VALUES (?, 'work@example.com', 'work@example.com', FALSE, 1, 0)
                """, [ann])
        }
        #expect(try fixture.services.addresses.requestPrimaryChange(to: "WORK@example.com", accountId: ann, client: client))
        #expect(try primary(fixture, ann) == "work@example.com")
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["primary_address_changed"])
        #expect(try fixture.mailKinds(to: "work@example.com").isEmpty)
        #expect(try fixture.audits(.emailChanged).map { $0["detail"] as String } == ["primary"])
    }

    @Test func anUnverifiedAddressOfTheAccountIsMarkedAndItsLinkSentAgainUnlessThrottled() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        try fixture.services.addresses.add("new@example.com", to: ann, client: client)
        #expect(try fixture.mailKinds(to: "new@example.com") == ["address_verification"])
        // Within the throttle window: marked, no second mail
        #expect(try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: client))
        #expect(try marked(fixture) == ["new@example.com"])
        #expect(try fixture.mailKinds(to: "new@example.com").count == 1)
        // Asked again at once: nothing changed
        #expect(try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: client) == false)
        // After the window: a new link
        fixture.clock.advance(by: 61)
        #expect(try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: client))
        #expect(try fixture.mailKinds(to: "new@example.com").count == 2)
        #expect(try fixture.count("emailAddress") == 2)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "new@example.com"), client: client)
        #expect(try primary(fixture, ann) == "new@example.com")
    }

    @Test func anotherAccountsAddressIsRefusedAsAddRefusesItAndNothingIsWritten() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        _ = try fixture.signUp("bob@example.com")
        let before = try [fixture.count("emailAddress"), fixture.count("mailQueue"), fixture.count("audit")]
        #expect(invalidKeys { try fixture.services.addresses.requestPrimaryChange(to: "BOB@example.com", accountId: ann, client: client) }
                == ["email:address_unavailable"])
        #expect(invalidKeys { try fixture.services.addresses.requestPrimaryChange(to: "not an address", accountId: ann, client: client) }
                == ["email:invalid_email"])
        #expect(try [fixture.count("emailAddress"), fixture.count("mailQueue"), fixture.count("audit")] == before)
        #expect(try marked(fixture).isEmpty)
    }

    @Test func theAddressLimitHoldsAndLeavesNothing() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        for index in 1..<EmailAddresses.limit { try fixture.services.addresses.add("extra\(index)@example.com", to: ann, client: client) }
        #expect(invalidKeys { try fixture.services.addresses.requestPrimaryChange(to: "one-more@example.com", accountId: ann, client: client) }
                == ["email:address_limit"])
        #expect(try marked(fixture).isEmpty && fixture.count("emailAddress") == EmailAddresses.limit)
    }

    // MARK: Only the latest request waits

    @Test func aNewerRequestReplacesTheWaitingOne() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        try fixture.services.addresses.requestPrimaryChange(to: "first@example.com", accountId: ann, client: client)
        try fixture.services.addresses.requestPrimaryChange(to: "second@example.com", accountId: ann, client: client)
        #expect(try marked(fixture) == ["second@example.com"])
        #expect(try fixture.services.apiTokens.summary(of: ann).pendingEmail == "second@example.com")
        // The first one's link still verifies it, but it does not become primary
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "first@example.com"), client: client)
        #expect(try primary(fixture, ann) == "Ann@Example.com")
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "second@example.com"), client: client)
        #expect(try primary(fixture, ann) == "second@example.com")
    }

    @Test func makingAnotherAddressPrimaryInTheSettingsDropsTheWaitingChange() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        try fixture.services.addresses.requestPrimaryChange(to: "later@example.com", accountId: ann, client: client)
        let work = try fixture.services.addresses.add("work@example.com", to: ann, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "work@example.com"), client: client)
        #expect(try primary(fixture, ann) == "Ann@Example.com", "an address added in the settings is not marked")
        try fixture.services.addresses.makePrimary(addressId: try #require(work.id), of: ann, client: client)
        #expect(try marked(fixture).isEmpty)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "later@example.com"), client: client)
        #expect(try primary(fixture, ann) == "work@example.com")
    }

    @Test func goingBackToAVerifiedAddressDropsTheWaitingChange() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        try fixture.services.addresses.requestPrimaryChange(to: "later@example.com", accountId: ann, client: client)
        try fixture.services.addresses.add("work@example.com", to: ann, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "work@example.com"), client: client)
        try fixture.services.addresses.requestPrimaryChange(to: "work@example.com", accountId: ann, client: client)
        #expect(try primary(fixture, ann) == "work@example.com" && marked(fixture).isEmpty)
    }

    // MARK: No half-written rows

    @Test func aFailureAfterTheInsertLeavesNoAddressNoMarkAndNoMail() throws {
        // Given a trigger that fails the mark, the last step, after the address and its link were written
        let fixture = try TestFixture()
        let ann = try account(fixture)
        _ = try fixture.database.write { tx in
            try tx.installTrigger("boom", "BEFORE", "UPDATE OF makePrimaryOnVerify", on: "emailAddress", when: "NEW.makePrimaryOnVerify")
        }
        #expect(throws: StorageError.self) {
            try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: client)
        }
        #expect(try [fixture.count("emailAddress"), fixture.count("mailQueue"), fixture.count("accountToken")] == [1, 0, 0])
        #expect(try fixture.audits(.emailAdded).isEmpty)
    }

    @Test func aUniqueViolationAtInsertBecomesTheNeutralErrorAndWritesNothing() throws {
        // Given a trigger that slips another account's row in just before ours (as a concurrent writer would)
        let fixture = try TestFixture()
        let ann = try account(fixture)
        let bob = try fixture.signUp("bob@example.com").session.accountId
        _ = try fixture.database.write { tx in
            try tx.installTrigger("race", "BEFORE", "INSERT", on: "emailAddress", when: """
                NEW.normalizedAddress = 'race@example.com' AND NOT EXISTS (SELECT 1 FROM emailAddress WHERE normalizedAddress = 'race@example.com')
                """, run: """
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                  VALUES (\(bob), 'race@example.com', 'race@example.com', FALSE, 1, 0)
                """)
        }
        #expect(invalidKeys { try fixture.services.addresses.requestPrimaryChange(to: "race@example.com", accountId: ann, client: client) }
                == ["email:address_unavailable"])
        #expect(try fixture.count("emailAddress") == 2 && fixture.count("mailQueue") == 0 && marked(fixture).isEmpty)
    }

    @Test func aFailedConfirmationSwitchLeavesTheAddressUnverifiedAndThePrimaryAsItWas() throws {
        let fixture = try TestFixture()
        let ann = try account(fixture)
        try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: client)
        _ = try fixture.database.write { tx in
            try tx.installTrigger("boom", "BEFORE", "INSERT", on: "mailQueue", when: "NEW.kind = 'primary_address_changed'")
        }
        let token = try verificationToken(fixture, to: "new@example.com")
        #expect(throws: StorageError.self) { try fixture.services.confirmation.confirm(token: token, client: client) }
        #expect(try primary(fixture, ann) == "Ann@Example.com" && marked(fixture) == ["new@example.com"])
        #expect(try fixture.services.addresses.verified("new@example.com", of: ann) == nil)
        _ = try fixture.database.write { tx in try tx.dropTrigger("boom", on: "mailQueue") }
        _ = try fixture.services.confirmation.confirm(token: token, client: client)
        #expect(try primary(fixture, ann) == "new@example.com")
    }
}
