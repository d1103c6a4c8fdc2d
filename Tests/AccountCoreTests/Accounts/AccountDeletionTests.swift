// AccountDeletionTests.swift: a person deletes their own account; the operator's deletion shares the code.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct AccountDeletionTests {
    let client = ClientInfo(userAgent: "Firefox", remoteAddress: "10.0.0.1")

    /// Ann (primary Ann@Example.com, a second verified address, a reset link, a failed sign-in, a profile value,
    /// an unsent and a sent mail) and Bob, with an unsent mail of his own.
    func populated() throws -> (fixture: TestFixture, ann: SessionGrant, bob: SessionGrant) {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("Ann@Example.com")
        let bob = try fixture.signUp("bob@example.com")
        let id = ann.session.accountId
        let now = fixture.clock.now().timeIntervalSince1970
        try fixture.database.write { tx in
            try tx.execute("""
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                VALUES (?, 'ann@work.example', 'ann@work.example', FALSE, ?, ?)
                """, [id, now, now])
            try tx.execute("INSERT INTO profileValue (accountId, field, value) VALUES (?, 'username', 'ann')", [id])
        }
        try fixture.database.write { tx in
            _ = try fixture.services.reminder.tokens.issue(.reset, accountId: id, emailAddressId: nil, lifetime: 3600, in: tx)
            try fixture.services.mail.enqueue(.passwordReset(token: "x"), to: "Ann@Example.com", in: tx)
            try fixture.services.mail.enqueue(.passwordChanged, to: "ann@work.example", in: tx)
            try fixture.services.mail.enqueue(.passwordChanged, to: "bob@example.com", in: tx)
            try fixture.services.mail.enqueue(.signUpAttempt, to: "Ann@Example.com", in: tx)
            try tx.execute("UPDATE mailQueue SET sentAt = ? WHERE kind = 'sign_up_attempt'", [now])
        }
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "wrong password") }
        #expect(try fixture.count("accountToken") == 1 && fixture.count("mailQueue") == 4)
        return (fixture, ann, bob)
    }

    func invalid(_ body: () throws -> Void) -> ValidationErrors? {
        do { try body() } catch AccountError.invalid(let errors) { return errors } catch { Issue.record("unexpected \(error)") }
        return nil
    }

    func rows(_ fixture: TestFixture, _ sql: String, _ arguments: SQLArguments = []) throws -> [SQLRow] {
        try fixture.database.read { tx in try tx.rows(sql, arguments) }
    }

    @Test func aWrongOrBlankPasswordDeletesNothing() throws {
        let (fixture, ann, _) = try populated()
        let before = try ["account", "emailAddress", "session", "accountToken", "mailQueue", "profileValue"].map { try fixture.count($0) }
        let wrong = try #require(invalid {
            try fixture.services.deletion.delete(session: ann.token.digest, password: "not it", client: client)
        })
        #expect(wrong.messages(for: "password", in: .english) == ["Password is not correct"])
        let blank = try #require(invalid {
            try fixture.services.deletion.delete(session: ann.token.digest, password: "", client: client)
        })
        #expect(blank.messages(for: "password", in: .english) == ["Password can't be blank"])
        #expect(try ["account", "emailAddress", "session", "accountToken", "mailQueue", "profileValue"].map { try fixture.count($0) } == before)
        #expect(try fixture.services.audit.list(AuditFilter(event: .accountDeleted)).isEmpty)
        #expect(try fixture.count("signInFailure") == 2, "the sign-in failure and the wrong password; not the blank one")
    }

    @Test func deletionRemovesEverythingThatNamesThePersonAndSaysGoodbye() throws {
        let (fixture, ann, bob) = try populated()
        let id = ann.session.accountId
        #expect(try fixture.services.deletion.delete(session: ann.token.digest, password: "correct horse", client: client) == "Ann@Example.com")

        #expect(try fixture.services.sessions.find(token: ann.token.encoded) == nil)
        for table in ["account": "id", "emailAddress": "accountId", "session": "accountId", "accountToken": "accountId",
                      "profileValue": "accountId", "signInFailure": "accountId"] {
            #expect(try rows(fixture, "SELECT 1 FROM \(table.key) WHERE \(table.value) = ?", [id]).isEmpty, "\(table.key)")
        }
        // Unsent mail to either address is gone; Bob's stays; the goodbye is queued to the former primary address.
        let unsent = try rows(fixture, "SELECT kind, recipient FROM mailQueue WHERE sentAt IS NULL ORDER BY id")
            .map { "\($0["kind"] as String) \($0["recipient"] as String)" }
        #expect(unsent == ["password_changed bob@example.com", "account_deleted Ann@Example.com"])
        // The audit rows keep the id but no address; the deletion itself is recorded without one.
        let trail = try fixture.services.audit.list(AuditFilter(accountId: id))
        #expect(trail.count >= 3 && trail.allSatisfy { $0.email == nil })
        #expect(trail.first?.event == "account_deleted" && trail.first?.detail == "by its owner" && trail.first?.remoteAddress == "10.0.0.1")
        #expect(try rows(fixture, "SELECT 1 FROM audit WHERE lower(email) IN ('ann@example.com', 'ann@work.example')").isEmpty)
        #expect(try fixture.services.audit.list(AuditFilter(accountId: bob.session.accountId)).allSatisfy { $0.email == "bob@example.com" })
        // Bob is untouched, and the addresses are free again.
        #expect(try fixture.services.sessions.find(token: bob.token.encoded) != nil)
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com") }
        #expect(try fixture.signUp("ann@work.example").session.accountId != id)
    }

    @Test func invitationsThePersonUsedAreRemoved() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        let now = fixture.clock.now().timeIntervalSince1970
        try fixture.database.write { tx in
            for (byte, address, used) in [(UInt8(1), "ann@example.com", true), (2, "cat@example.com", true), (3, "ann@example.com", false)] {
                try tx.execute("""
                    INSERT INTO invite (digest, address, normalizedAddress, createdAt, expiresAt, usedAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, [Data(repeating: byte, count: 32), address, address, now, now + 60, used ? now : nil])
            }
        }
        try fixture.services.deletion.delete(session: ann.token.digest, password: "correct horse", client: client)
        #expect(try rows(fixture, "SELECT digest FROM invite ORDER BY digest").map { ($0["digest"] as Data).first } == [2, 3])
    }

    @Test func aSessionThatIsGoneDeletesNothing() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        try fixture.services.sessions.revoke(token: ann.token.encoded)
        #expect(throws: AccountError.notFound) {
            try fixture.services.deletion.delete(session: ann.token.digest, password: "correct horse", client: client)
        }
        #expect(try fixture.count("account") == 1)
    }

    @Test func theOperatorsDeletionSharesTheCodeButKeepsTheAddressInTheTrail() throws {
        let (fixture, ann, _) = try populated()
        let id = ann.session.accountId
        let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")
        #expect(try fixture.services.administration.delete(accountId: id, client: cli) == "Ann@Example.com")
        #expect(try rows(fixture, "SELECT 1 FROM emailAddress WHERE accountId = ?", [id]).isEmpty)
        let unsent = try rows(fixture, "SELECT kind, recipient FROM mailQueue WHERE sentAt IS NULL ORDER BY id")
            .map { "\($0["kind"] as String) \($0["recipient"] as String)" }
        #expect(unsent == ["password_changed bob@example.com"], "pending mail goes; no goodbye from the operator")
        let deleted = try #require(try fixture.services.audit.list(AuditFilter(accountId: id)).first)
        #expect(deleted.event == "account_deleted" && deleted.email == "Ann@Example.com" && deleted.detail == "by the operator")
        #expect(throws: AdministrationError.noAccount(String(id))) { try fixture.services.administration.delete(accountId: id, client: cli) }
    }

    // MARK: Accounts without a password (made through a provider)

    @Test func anAccountWithoutAPasswordIsDeletedAfterARecentSignIn() throws {
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity(email: "ann@example.com")).grant
        #expect(try fixture.services.deletion.delete(session: grant.token.digest, password: "", client: client) == "ann@example.com")
        #expect(try [fixture.count("account"), fixture.count("socialIdentity"), fixture.count("session")] == [0, 0, 0])
    }

    @Test func anAccountWithoutAPasswordIsNotDeletedWithoutARecentSignIn() throws {
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity()).grant
        fixture.clock.advance(by: 601)
        #expect(throws: AccountError.reauthenticationRequired) {
            try fixture.services.deletion.delete(session: grant.token.digest, password: "anything", client: client)
        }
        #expect(try fixture.count("account") == 1)
    }
}
