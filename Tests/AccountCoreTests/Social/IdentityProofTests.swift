// IdentityProofTests.swift: an identity linked while its account had no verified address (a provider that gives no
// address, and the address typed on auth/email) stays linked only when the address is proven in the browser that
// signed in at the provider (IdentityProof.swift); confirmed elsewhere, reset elsewhere or by the operator, it goes.
// GRDB only for the migration test (SQLite's own migrator, as RetentionTests does).
import Foundation
import GRDB
import Testing
@testable import AccountCore

struct IdentityProofTests {
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.7")

    /// An X-like identity (no address) that gave `email` on auth/email in `browser`; returns the account id.
    private func typed(_ fixture: TestFixture, _ email: String = "victim@example.com", subject: String = "x-1") throws -> Int64 {
        let token = try fixture.socialPending(identity(subject, provider: "x", email: nil))
        _ = try fixture.services.social.submitEmail(pendingToken: token, binding: browser, email: email, client: client, here: nil)
        return try #require(try fixture.database.read { tx in
            try tx.value(Int64.self, "SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", [email])
        })
    }

    private func confirmationToken(_ fixture: TestFixture, to address: String) throws -> String {
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'confirmation' AND recipientKey = ? ORDER BY id DESC",
                         [address.lowercased()])
        })
        return String(try #require(message.firstMatch(of: /confirmation\(token: "([A-Za-z0-9_-]+)"\)/)).1)
    }

    private func unproven(_ fixture: TestFixture) throws -> [Bool] {
        try fixture.database.read { tx in
            try tx.values(Bool.self, "SELECT unprovenBinding IS NOT NULL AS unproven FROM socialIdentity ORDER BY id")
        }
    }

    @Test func confirmedInTheBrowserThatSignedInTheIdentityStaysAndSignsIn() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let account = try typed(fixture)
        #expect(try unproven(fixture) == [true])
        let confirmed = try fixture.services.confirmation.confirmAddress(token: try confirmationToken(fixture, to: "victim@example.com"),
                                                                          client: client, binding: browser)
        #expect(confirmed == ConfirmedAddress(address: "victim@example.com", unlinkedProviders: []))
        #expect(try unproven(fixture) == [false])
        #expect(try fixture.socialSignIn(identity("x-1", provider: "x", email: nil)).grant.session.accountId == account)
    }

    @Test func confirmedInAnotherBrowserTheIdentityIsUnlinkedAndItsSessionsEnd() throws {
        for required in [true, false] {
            let fixture = try TestFixture(confirmationRequired: required)
            let account = try typed(fixture)
            #expect(try fixture.count("session") == (required ? 0 : 1))
            let token = required ? try confirmationToken(fixture, to: "victim@example.com") : try {
                try fixture.services.confirmation.resend(email: "victim@example.com", client: client)
                return try confirmationToken(fixture, to: "victim@example.com")
            }()
            let confirmed = try fixture.services.confirmation.confirmAddress(token: token, client: client, binding: otherBrowser)
            #expect(confirmed.unlinkedProviders == ["x"])
            #expect(try fixture.linkedIdentities().isEmpty && fixture.count("session") == 0)
            #expect(try fixture.audits(.identityUnlinked).map { $0["detail"] as String } == ["x: address confirmed in another browser"])
            #expect(try fixture.audits(.identityUnlinked).map { $0["accountId"] as Int64 } == [account])
            // The provider's next sign-in asks for an address again, and the address's account is not offered
            guard case .needsEmail = try fixture.social(identity("x-1", provider: "x", email: nil)) else {
                Issue.record("expected the address step"); continue
            }
        }
    }

    @Test func aConfirmationWithoutABrowserAnOperatorsConfirmAndAResetElsewhereUnlinkToo() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try typed(fixture, "one@example.com", subject: "x-1")
        _ = try fixture.services.confirmation.confirm(token: try confirmationToken(fixture, to: "one@example.com"))
        let second = try typed(fixture, "two@example.com", subject: "x-2")
        try fixture.services.administration.confirm(accountId: second, client: client)
        #expect(try fixture.linkedIdentities().isEmpty)

        // An identity still unproven on an account whose address is verified (written before this rule existed): a reset
        // in another browser unlinks it
        let third = try typed(fixture, "three@example.com", subject: "x-3")
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1 WHERE accountId = ?", [third]) }
        try fixture.services.reminder.sendReminder(email: "three@example.com", client: client)
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_reset' ORDER BY id DESC")
        })
        let reset = String(try #require(message.firstMatch(of: /passwordReset\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        #expect(try fixture.services.reminder.linkedProviders(token: reset) == ["x"])
        _ = try fixture.services.reminder.reset(token: reset, form: TestFixture.form(email: "", password: "brand new words"),
                                                client: client, binding: otherBrowser)
        #expect(try fixture.linkedIdentities().isEmpty)
    }

    @Test func aResetMailSaysWhichProvidersAreLinked() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let account = try fixture.socialSignIn(identity("corp-1", email: "ann@example.com")).grant.session.accountId
        try fixture.services.reminder.sendReminder(email: "ann@example.com", client: client)
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_reset' ORDER BY id DESC")
        })
        let reset = String(try #require(message.firstMatch(of: /passwordReset\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        #expect(try fixture.services.reminder.linkedProviders(token: reset) == ["corp"])
        #expect(try fixture.services.reminder.linkedProviders(token: "not-a-token") == [])
        let grant = try fixture.services.reminder.reset(token: reset, form: TestFixture.form(email: "", password: "brand new words"),
                                                        client: client, binding: otherBrowser)
        #expect(grant.session.accountId == account)
        #expect(try fixture.linkedIdentities() == ["corp/corp-1→\(account)"], "linked with a verified address: proven, kept")
        let changed = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_changed' ORDER BY id DESC")
        })
        #expect(changed.contains("passwordChanged(providers: [\"corp\"])"))
    }

    @Test func linkingToAnAccountWithoutAVerifiedAddressIsUnprovenToo() throws {
        // Confirmation off: an account signed up with an address nobody proved links a provider in its settings
        let fixture = try TestFixture()
        let grant = try fixture.signUp("squatter@example.com")
        #expect(try fixture.social(identity("gh-1", provider: "github", email: "someone@github.example"), purpose: .link,
                                   session: grant.session).isLinked)
        #expect(try unproven(fixture) == [true])
        try fixture.services.confirmation.resend(email: "squatter@example.com", client: client)
        _ = try fixture.services.confirmation.confirmAddress(token: try confirmationToken(fixture, to: "squatter@example.com"),
                                                             client: client, binding: otherBrowser)
        #expect(try fixture.linkedIdentities().isEmpty)
    }
}

extension IdentityProofTests {
    @Test func theMigrationMarksIdentitiesOfAccountsWithoutAVerifiedAddressAsUnproven() throws {
        let queue = try DatabaseQueue()
        try SQLiteBackend.migrator.migrate(queue, upTo: "v12-session-notifications")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO account (id, passwordHash, createdAt, updatedAt) VALUES (1, '', 0, 0), (2, '', 0, 0);
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt) VALUES
                    (1, 'typed@example.com', 'typed@example.com', 1, NULL, 0), (2, 'proven@example.com', 'proven@example.com', 1, 5, 0);
                INSERT INTO socialIdentity (accountId, provider, subject, createdAt) VALUES (1, 'x', 'a', 0), (2, 'x', 'b', 0);
                """)
        }
        try SQLiteBackend.migrator.migrate(queue)
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT accountId, unprovenBinding FROM socialIdentity ORDER BY accountId") }
        #expect(rows.map { $0["unprovenBinding"] as Data? } == [Data(), nil], "the empty digest: no browser proves it")
    }
}

private extension SocialOutcome {
    var isLinked: Bool {
        if case .linked = self { return true }
        return false
    }
}
