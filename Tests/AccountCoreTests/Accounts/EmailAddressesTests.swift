@testable import AccountCore
import AccountRules
import Foundation
import IPAddresses
import StorageTestKit
import Testing

struct EmailAddressesTests {
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.1")

    /// An account (signed up with confirmation off) whose primary address is verified; returns its id.
    func verifiedAccount(_ fixture: TestFixture, _ email: String = "Ann@Example.com") throws -> Int64 {
        let accountId = try fixture.signUp(email).session.accountId
        _ = try fixture.database.write { tx in
            try tx.execute("UPDATE emailAddress SET verifiedAt = 1 WHERE accountId = ?", [accountId])
        }
        return accountId
    }

    func mails(_ fixture: TestFixture, kind: String, to address: String) throws -> Int {
        try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM mailQueue WHERE kind = ? AND recipientKey = ?", [kind, address.lowercased()]) ?? 0
        }
    }

    func audits(_ fixture: TestFixture, _ event: String) throws -> [SQLRow] {
        try fixture.database.read { tx in try tx.rows("SELECT * FROM audit WHERE event = ? ORDER BY id", [event]) }
    }

    // MARK: Look-ups

    @Test func onlyVerifiedAddressesOfTheAccountAreFound() throws {
        let fixture = try TestFixture(confirmationRequired: false)
        let ann = try fixture.signUp("Ann@Example.com").session.accountId
        let bob = try fixture.signUp("bob@example.com").session.accountId
        let addresses = fixture.services.addresses
        #expect(try addresses.all(of: ann).map(\.address) == ["Ann@Example.com"])
        #expect(try addresses.verified("ann@example.com", of: ann) == nil)   // not confirmed yet
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        #expect(try addresses.verified("ANN@example.com", of: ann)?.address == "Ann@Example.com")
        #expect(try addresses.verified("bob@example.com", of: ann) == nil)
        #expect(try addresses.verified("bob@example.com", of: bob) != nil)
    }

    // MARK: Add and confirm

    @Test func anAddedAddressIsUnverifiedUntilItsMailedLinkIsFollowed() throws {
        let fixture = try TestFixture()
        let accountId = try verifiedAccount(fixture)
        let added = try fixture.services.addresses.add("  Work@Example.org ", to: accountId, client: client)
        #expect(added.address == "Work@Example.org", "trimmed, kept as typed")
        #expect(added.normalizedAddress == "work@example.org")
        #expect(!added.isPrimary && added.verifiedAt == nil)
        #expect(try mails(fixture, kind: "address_verification", to: "work@example.org") == 1)
        #expect(try audits(fixture, "email_added").map { $0["email"] as String } == ["Work@Example.org"])
        #expect(try fixture.services.addresses.verified("work@example.org", of: accountId) == nil)

        let token = try verificationToken(fixture, to: "Work@Example.org")
        #expect(try fixture.services.confirmation.confirm(token: token, client: client) == "Work@Example.org")
        #expect(try fixture.services.addresses.verified("WORK@example.org", of: accountId)?.id == added.id)
        #expect(try fixture.services.addresses.all(of: accountId).map(\.address) == ["Ann@Example.com", "Work@Example.org"])
    }

    /// An address that can sign in and receive reset links is news for the primary address, coming and going (ASVS 2.5.5);
    /// an unverified one could never sign in, so its removal is not.
    @Test func thePrimaryAddressHearsWhenAnotherAddressIsConfirmedOrRemoved() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        let work = try fixture.services.addresses.add("work@example.org", to: ann, client: client)
        #expect(try mails(fixture, kind: "address_added", to: "ann@example.com") == 0, "not before the link is followed")
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "work@example.org"))
        #expect(try mails(fixture, kind: "address_added", to: "ann@example.com") == 1)
        #expect(try mails(fixture, kind: "address_added", to: "work@example.org") == 0)
        let other = try fixture.services.addresses.add("other@example.org", to: ann, client: client)
        try fixture.services.addresses.remove(addressId: other.id!, of: ann, client: client)
        #expect(try mails(fixture, kind: "address_removed", to: "ann@example.com") == 0)
        try fixture.services.addresses.remove(addressId: work.id!, of: ann, client: client)
        #expect(try mails(fixture, kind: "address_removed", to: "ann@example.com") == 1)
        let text = try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'address_removed'")
        }
        #expect(text?.contains("work@example.org") == true)
    }

    @Test func anInvalidAddressIsRefusedWithTheSignUpRules() throws {
        let fixture = try TestFixture()
        let accountId = try verifiedAccount(fixture)
        #expect(invalidKeys { try fixture.services.addresses.add("  ", to: accountId, client: client) } == ["email:blank"])
        #expect(invalidKeys { try fixture.services.addresses.add("not an address", to: accountId, client: client) } == ["email:invalid_email"])
        #expect(try fixture.count("emailAddress") == 1)
        #expect(try fixture.count("mailQueue") == 0)
    }

    @Test func anAddressAlreadyOnTheAccountIsSaidToBeYours() throws {
        let fixture = try TestFixture()
        let accountId = try verifiedAccount(fixture)
        try fixture.services.addresses.add("work@example.org", to: accountId, client: client)
        for address in ["ann@EXAMPLE.com", "Work@Example.org"] {
            #expect(invalidKeys { try fixture.services.addresses.add(address, to: accountId, client: client) } == ["email:address_already_yours"])
        }
        #expect(try fixture.count("emailAddress") == 2)
    }

    @Test func anotherAccountsAddressGetsOneNeutralRefusalWhateverItsState() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture, "ann@example.com")
        let bob = try fixture.signUp("bob@example.com").session.accountId   // primary, unverified
        try fixture.services.addresses.add("bob.pending@example.com", to: bob, client: client)   // fresh claim
        for address in ["bob@example.com", "BOB.pending@example.com"] {
            #expect(invalidKeys { try fixture.services.addresses.add(address, to: ann, client: client) } == ["email:address_unavailable"])
        }
        #expect(try fixture.services.addresses.all(of: ann).count == 1)
        #expect(try fixture.services.addresses.all(of: bob).count == 2)
        #expect(MessageCatalog.english.text("address_unavailable") == "can't be added to your account")
    }

    @Test func aStaleUnverifiedClaimOfAnotherAccountGivesWay() throws {
        // Given Bob added Ann's work address and never confirmed it
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture, "ann@example.com")
        let bob = try verifiedAccount(fixture, "bob@example.com")
        try fixture.services.addresses.add("ann@work.example", to: bob, client: client)
        let bobsToken = try verificationToken(fixture, to: "ann@work.example")
        // Within the link's lifetime it still blocks the address
        fixture.clock.advance(by: fixture.services.confirmation.lifetime)
        #expect(invalidKeys { try fixture.services.addresses.add("ann@work.example", to: ann, client: client) } == ["email:address_unavailable"])
        // After it, Ann's add wins: Bob's row and his link are gone
        fixture.clock.advance(by: 1)
        let added = try fixture.services.addresses.add("ann@work.example", to: ann, client: client)
        #expect(added.accountId == ann)
        #expect(try fixture.services.addresses.all(of: bob).map(\.address) == ["bob@example.com"])
        #expect(throws: AccountError.invalidToken) { try fixture.services.confirmation.confirm(token: bobsToken) }
        let removal = try #require(try audits(fixture, "email_removed").first)
        #expect(removal["accountId"] as Int64 == bob)
    }

    @Test func aStaleButVerifiedOrPrimaryAddressNeverGivesWay() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture, "ann@example.com")
        let bob = try verifiedAccount(fixture, "bob@example.com")
        _ = try fixture.signUp("carol@example.com")   // an unconfirmed account's primary address
        try fixture.services.addresses.add("bob@work.example", to: bob, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "bob@work.example"))
        fixture.clock.advance(by: 30 * 86400)
        for address in ["bob@example.com", "bob@work.example", "carol@example.com"] {
            #expect(invalidKeys { try fixture.services.addresses.add(address, to: ann, client: client) } == ["email:address_unavailable"])
        }
        #expect(try fixture.count("emailAddress") == 4)
    }

    /// The takeover reads the claim before any lock, so its owner may confirm it (under the owner's own address lock)
    /// before the taker deletes it: the DELETE takes the row only while it is unverified and not primary, and says so.
    @Test func aClaimConfirmedMeanwhileIsNotTakenOver() throws {
        let fixture = try TestFixture()
        let bob = try verifiedAccount(fixture, "bob@example.com")
        let claim = try fixture.services.addresses.add("ann@work.example", to: bob, client: client)
        let id = try #require(claim.id)
        // Confirmed between the taker's read and its DELETE
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1 WHERE id = ?", [id]) }
        #expect(try fixture.database.write { tx in try tx.deleteUnverifiedClaim(id: id) } == false)
        let primary = try #require(try fixture.services.addresses.all(of: bob).first { $0.isPrimary }?.id)
        #expect(try fixture.database.write { tx in try tx.deleteUnverifiedClaim(id: primary) } == false)
        #expect(try fixture.services.addresses.all(of: bob).count == 2, "neither went")
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = NULL WHERE id = ?", [id]) }
        #expect(try fixture.database.write { tx in try tx.deleteUnverifiedClaim(id: id) } == true, "a claim still stale goes")
    }

    @Test func anAccountHoldsAtMostTenAddresses() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        for n in 1..<EmailAddresses.limit { try fixture.services.addresses.add("ann\(n)@example.org", to: ann, client: client) }
        #expect(invalidKeys { try fixture.services.addresses.add("one.more@example.org", to: ann, client: client) } == ["email:address_limit"])
        #expect(try fixture.services.addresses.all(of: ann).count == EmailAddresses.limit)
        #expect(MessageCatalog.english.fullMessage(for: FieldError(key: "address_limit", arguments: ["count": "10"]), displayName: "Email")
                == "Email can't be added: an account can hold at most 10 addresses")
    }

    @Test func aUniqueViolationAtInsertBecomesTheNeutralErrorAndWritesNothing() throws {
        // Given a trigger that slips a row in just before ours (as a concurrent writer would, past the check)
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture, "ann@example.com")
        let bob = try verifiedAccount(fixture, "bob@example.com")
        _ = try fixture.database.write { tx in
            try tx.installTrigger("race", "BEFORE", "INSERT", on: "emailAddress", when: """
                NEW.normalizedAddress = 'race@example.com' AND NOT EXISTS (SELECT 1 FROM emailAddress WHERE normalizedAddress = 'race@example.com')
                """, run: """
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                  VALUES (\(bob), 'race@example.com', 'race@example.com', FALSE, 1, 0)
                """)
        }
        #expect(invalidKeys { try fixture.services.addresses.add("race@example.com", to: ann, client: client) } == ["email:address_unavailable"])
        #expect(try fixture.count("emailAddress") == 2, "rolled back, the racing row too")
        #expect(try fixture.count("mailQueue") == 0)
        #expect(try fixture.count("accountToken") == 0)
        #expect(try audits(fixture, "email_added").isEmpty)
    }

    // MARK: Resend

    @Test func resendingMailsANewLinkUnlessThrottled() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        let added = try fixture.services.addresses.add("work@example.org", to: ann, client: client)
        let first = try verificationToken(fixture, to: "work@example.org")
        try fixture.services.addresses.resend(addressId: added.id!, of: ann, client: client)
        #expect(try mails(fixture, kind: "address_verification", to: "work@example.org") == 1, "throttled: silently nothing")
        fixture.clock.advance(by: 61)
        try fixture.services.addresses.resend(addressId: added.id!, of: ann, client: client)
        #expect(try mails(fixture, kind: "address_verification", to: "work@example.org") == 2)
        let second = try verificationToken(fixture, to: "work@example.org")
        #expect(second != first)
        _ = try fixture.services.confirmation.confirm(token: second)
        fixture.clock.advance(by: 61)
        try fixture.services.addresses.resend(addressId: added.id!, of: ann, client: client)
        #expect(try mails(fixture, kind: "address_verification", to: "work@example.org") == 2, "nothing for a verified address")
    }

    @Test func anotherAccountsAddressIsNotFound() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture, "ann@example.com")
        let bob = try verifiedAccount(fixture, "bob@example.com")
        let bobs = try fixture.services.addresses.add("bob@work.example", to: bob, client: client)
        let bobsPrimary = try #require(try fixture.services.addresses.all(of: bob).first?.id)
        #expect(throws: AccountError.notFound) { try fixture.services.addresses.resend(addressId: bobs.id!, of: ann, client: client) }
        #expect(throws: AccountError.notFound) { try fixture.services.addresses.remove(addressId: bobs.id!, of: ann, client: client) }
        #expect(throws: AccountError.notFound) { try fixture.services.addresses.makePrimary(addressId: bobsPrimary, of: ann, client: client) }
        #expect(throws: AccountError.notFound) { try fixture.services.addresses.remove(addressId: 999, of: ann, client: client) }
        #expect(try fixture.services.addresses.all(of: bob).count == 2)
    }

    // MARK: Remove

    @Test func removingAnAddressDeletesItAndItsLinks() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        let added = try fixture.services.addresses.add("work@example.org", to: ann, client: client)
        let token = try verificationToken(fixture, to: "work@example.org")
        try fixture.services.addresses.remove(addressId: added.id!, of: ann, client: client)
        #expect(try fixture.services.addresses.all(of: ann).map(\.address) == ["Ann@Example.com"])
        #expect(try fixture.count("accountToken") == 0)
        #expect(throws: AccountError.invalidToken) { try fixture.services.confirmation.confirm(token: token) }
        #expect(try audits(fixture, "email_removed").map { $0["email"] as String } == ["work@example.org"])
    }

    @Test func thePrimaryAddressIsNeverRemoved() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        try fixture.services.addresses.add("work@example.org", to: ann, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "work@example.org"))
        let primary = try #require(try fixture.services.addresses.all(of: ann).first { $0.isPrimary }?.id)
        #expect(throws: AccountError.refused("address_primary_remove")) {
            try fixture.services.addresses.remove(addressId: primary, of: ann, client: client)
        }
        // The schema holds even when the code's check is skipped.
        #expect(throws: StorageError.self) {
            try fixture.database.write { tx in try tx.execute("DELETE FROM emailAddress WHERE id = ?", [primary]) }
        }
        #expect(try fixture.services.addresses.all(of: ann).count == 2)
    }

    @Test func theLastVerifiedAddressStays() throws {
        // Given an account whose primary address is not verified (confirmation off) and one verified added address
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session.accountId
        let work = try fixture.services.addresses.add("work@example.org", to: ann, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "work@example.org"))
        let other = try fixture.services.addresses.add("other@example.org", to: ann, client: client)
        #expect(throws: AccountError.refused("address_last_verified")) {
            try fixture.services.addresses.remove(addressId: work.id!, of: ann, client: client)
        }
        // An unverified one goes, since it is not the last verified
        try fixture.services.addresses.remove(addressId: other.id!, of: ann, client: client)
        #expect(try fixture.services.addresses.all(of: ann).map(\.address) == ["ann@example.com", "work@example.org"])
    }

    // MARK: Make primary

    @Test func makingAVerifiedAddressPrimaryTellsTheOldOneAndMovesTheSessionsAddress() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        let grant = try fixture.signIn()
        let work = try fixture.services.addresses.add("Work@Example.org", to: ann, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "work@example.org"))
        try fixture.services.addresses.makePrimary(addressId: work.id!, of: ann, client: client)
        let all = try fixture.services.addresses.all(of: ann)
        #expect(all.map(\.address) == ["Work@Example.org", "Ann@Example.com"])
        #expect(all.map(\.isPrimary) == [true, false])
        #expect(try mails(fixture, kind: "primary_address_changed", to: "ann@example.com") == 1)
        #expect(try mails(fixture, kind: "primary_address_changed", to: "work@example.org") == 0)
        let message = try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'primary_address_changed'")
        }
        #expect(message?.contains("Work@Example.org") == true, "the mail names the new address")
        let audit = try #require(try audits(fixture, "email_changed").first)
        #expect(audit["detail"] as String == "primary")
        #expect(audit["email"] as String == "Work@Example.org")
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.email == "Work@Example.org")
        // The old primary can now be removed; making the primary primary again changes nothing.
        try fixture.services.addresses.makePrimary(addressId: work.id!, of: ann, client: client)
        #expect(try fixture.count("mailQueue") == 3, "the verification mail, the added-address notice and one change notice")
        try fixture.services.addresses.remove(addressId: all[1].id!, of: ann, client: client)
        #expect(try fixture.services.addresses.all(of: ann).map(\.address) == ["Work@Example.org"])
    }

    @Test func anUnverifiedAddressCannotBecomePrimary() throws {
        let fixture = try TestFixture()
        let ann = try verifiedAccount(fixture)
        let work = try fixture.services.addresses.add("work@example.org", to: ann, client: client)
        #expect(throws: AccountError.refused("address_unverified_primary")) {
            try fixture.services.addresses.makePrimary(addressId: work.id!, of: ann, client: client)
        }
        #expect(try fixture.services.addresses.all(of: ann).map(\.isPrimary) == [true, false])
        #expect(try fixture.count("mailQueue") == 1, "only the verification mail")
        // The schema refuses it too.
        #expect(throws: StorageError.self) {
            try fixture.database.write { tx in
                try tx.execute("UPDATE emailAddress SET isPrimary = FALSE WHERE accountId = ?", [ann])
                try tx.execute("UPDATE emailAddress SET isPrimary = TRUE WHERE id = ?", [work.id!])
            }
        }
        #expect(try fixture.services.addresses.all(of: ann).map(\.isPrimary) == [true, false], "rolled back")
    }
}
