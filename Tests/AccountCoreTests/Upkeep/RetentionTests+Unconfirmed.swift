// RetentionTests+Unconfirmed.swift: accounts never confirmed, and added addresses never confirmed, expire after
// `retention.unconfirmed` (Retention+Unconfirmed.swift, run by the pruner): what goes, what stays (a confirmed
// address, a link that still works, an account in use), 0 keeping them forever; on the run's backend.
import Foundation
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

struct UnconfirmedRetentionTests {
    let day: TimeInterval = 86400
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.7")

    private func retention(_ fixture: TestFixture, keep: TimeInterval = 7 * 86400) -> Retention {
        Retention(database: fixture.database, policy: RetentionPolicy(unconfirmed: keep), clock: fixture.clock)
    }

    /// The token of the newest confirmation mail queued for `address`.
    private func confirmationToken(_ fixture: TestFixture, to address: String) throws -> String {
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'confirmation' AND recipientKey = ? ORDER BY id DESC",
                         [address.lowercased()])
        })
        return String(try #require(message.firstMatch(of: /confirmation\(token: "([A-Za-z0-9_-]+)"\)/)).1)
    }

    private func signUp(_ fixture: TestFixture, _ email: String) throws {
        _ = try fixture.services.registration.signUp(TestFixture.form(email: email), client: client)
    }

    private func addresses(_ fixture: TestFixture) throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT address FROM emailAddress ORDER BY address") }
    }

    @Test func neverConfirmedAccountsAndAddedAddressesGoOnceTheirRetentionAndLinksAreOver() throws {
        // Given an account never confirmed, and a confirmed one that added an address it never confirmed
        let fixture = try TestFixture(confirmationRequired: true)
        try signUp(fixture, "squatter@example.com")
        try signUp(fixture, "ann@example.com")
        _ = try fixture.services.confirmation.confirm(token: try confirmationToken(fixture, to: "ann@example.com"))
        let ann = try #require(try fixture.database.read { tx in
            try tx.value(Int64.self, "SELECT accountId FROM emailAddress WHERE normalizedAddress = 'ann@example.com'")
        })
        _ = try fixture.services.addresses.add("victim@x.example", to: ann, client: client)
        // and, six days later, a newer sign-up
        fixture.clock.advance(by: 6 * day)
        try signUp(fixture, "late@example.com")
        #expect(try retention(fixture).expireUnconfirmed() == .init(cutoff: fixture.clock.now() - 7 * day, accounts: 0, addresses: 0))

        // When the first two are a week and a second old
        fixture.clock.advance(by: day + 1)
        let outcome = try retention(fixture).expireUnconfirmed()

        // Then the unconfirmed account and the unconfirmed added address are gone; the rest stays
        #expect(outcome.accounts == 1 && outcome.addresses == 1)
        #expect(try addresses(fixture) == ["ann@example.com", "late@example.com"])
        #expect(try fixture.count("account") == 2)
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM accountToken WHERE usedAt IS NULL") } == 1,
                "late@'s link still works; the others went with their rows")
        #expect(try fixture.audits(.accountDeleted).map { $0["detail"] as String } == ["never confirmed"])
        #expect(try fixture.audits(.emailRemoved).map { $0["email"] as String? } == ["victim@x.example"])
        // and the owner of the address can sign up with it again
        try signUp(fixture, "squatter@example.com")
        #expect(try fixture.mailKinds(to: "squatter@example.com").last == "confirmation")
    }

    @Test func aLinkThatStillWorksKeepsItsAccount() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        try signUp(fixture, "slow@example.com")
        fixture.clock.advance(by: 6 * day)
        try fixture.services.confirmation.resend(email: "slow@example.com", client: client)   // a new 3-day link
        fixture.clock.advance(by: 2 * day)
        #expect(try retention(fixture).expireUnconfirmed().accounts == 0, "its link works for another day")
        fixture.clock.advance(by: day + 1)
        #expect(try retention(fixture).expireUnconfirmed().accounts == 1)
        #expect(try fixture.count("account") == 0)
    }

    @Test func anAccountInUseWithoutConfirmationStays() throws {
        // Confirmation off: the account signs in without ever confirming; while it is used it stays
        let fixture = try TestFixture()
        try fixture.signUp("user@example.com")
        try fixture.signUp("gone@example.com")
        fixture.clock.advance(by: 6 * day)
        try fixture.signIn("user@example.com")
        fixture.clock.advance(by: 2 * day)
        #expect(try retention(fixture).expireUnconfirmed().accounts == 1)
        #expect(try addresses(fixture) == ["user@example.com"])
    }

    @Test func zeroKeepsThemForeverAndThePrunerExpiresThemWithTheRest() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        try signUp(fixture, "squatter@example.com")
        fixture.clock.advance(by: 400 * day)
        #expect(try retention(fixture, keep: 0).expireUnconfirmed() == .init(cutoff: nil, accounts: 0, addresses: 0))
        #expect(try fixture.count("account") == 1)
        let pruner = Pruner(retention: retention(fixture), logger: Logger(label: "test"))
        #expect(pruner.pruneOnce() != nil)
        #expect(try fixture.count("account") == 0)
    }

    /// Each batch starts from the index of unverified addresses and reads the rest by key: no table is scanned
    /// (EXPLAIN QUERY PLAN, SQLite's).
    @Test func theStatementsUseIndexesNotScans() throws {
        let database = try TestDatabase.make(.sqlite)
        let statements: [(String, SQLArguments)] = [(Transaction.unconfirmedAccountsSQL, [1.0, 1.0, 1.0, 2.0, 1000]),
                                                    (Transaction.unconfirmedAddressesSQL, [1.0, 2.0, 1000])]
        for (sql, arguments) in statements {
            let plan = try database.read { tx in try tx.rows("EXPLAIN QUERY PLAN " + sql, arguments).map { $0["detail"] as String } }
            #expect(!plan.isEmpty && plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(sql): \(plan)")
            #expect(plan.contains { $0.contains("emailAddress_unverified") }, "\(plan)")
        }
    }

    @Test func batchesEndWhenABatchComesBackShort() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        for index in 0..<5 { try signUp(fixture, "squatter\(index)@example.com") }
        fixture.clock.advance(by: 8 * day)
        var pruning = retention(fixture)
        pruning.batchSize = 2
        #expect(try pruning.expireUnconfirmed(maxBatches: 2).accounts == 4)
        #expect(try pruning.expireUnconfirmed().accounts == 1)
    }
}
