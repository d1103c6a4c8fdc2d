import Foundation
import Testing
@testable import AccountCore

struct AuthenticationTests {
    @Test func theRightPasswordStartsASessionForTheAccount() throws {
        let fixture = try TestFixture()
        let signUp = try fixture.signUp("Ann@Example.com", password: "correct horse")
        fixture.clock.advance(by: 10)
        let grant = try fixture.signIn("Ann@Example.com", password: "correct horse", rememberMe: true)
        #expect(grant.session.accountId == signUp.session.accountId)
        #expect(grant.session.email == "Ann@Example.com")
        #expect(grant.session.rememberMe)
        #expect(grant.session.createdAt == fixture.clock.now())
        #expect(grant.session.expiresAt == fixture.clock.now() + SessionPolicy.default.rememberLifetime)
        #expect(grant.token != signUp.token)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.accountId == signUp.session.accountId)
    }

    @Test func aWrongPasswordAndAnUnknownAddressFailTheSameWay() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com", password: "correct horse")
        let sessionsBefore = try fixture.count("session")
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "wrong horse") }
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "") }
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("bob@example.com", password: "correct horse") }
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("", password: "correct horse") }
        #expect(try fixture.count("session") == sessionsBefore, "no session started")
    }

    @Test func theAddressIsComparedWithoutCaseOrSurroundingSpace() throws {
        let fixture = try TestFixture()
        let signUp = try fixture.signUp("Ann@Example.com")
        #expect(try fixture.signIn("ann@example.com").session.accountId == signUp.session.accountId)
        #expect(try fixture.signIn(" ANN@EXAMPLE.COM ").session.accountId == signUp.session.accountId)
        #expect(try fixture.signIn("ann@example.com").session.email == "Ann@Example.com", "the session shows the address as entered")
    }

    @Test func signingInEndsThePreviousSessionAndIssuesANewToken() throws {
        // Given a browser signed in with a session cookie
        let fixture = try TestFixture()
        let first = try fixture.signUp()
        // When it signs in again, sending its old cookie
        let second = try fixture.signIn(previousToken: first.token.encoded)
        // Then the old token is dead and the new one differs
        #expect(second.token.encoded != first.token.encoded)
        #expect(try fixture.services.sessions.find(token: first.token.encoded) == nil)
        #expect(try fixture.sessionRow(first) == nil)
        #expect(try fixture.services.sessions.find(token: second.token.encoded) != nil)
        #expect(try fixture.count("session") == 1)
    }

    @Test func aMalformedPreviousTokenIsIgnored() throws {
        let fixture = try TestFixture()
        try fixture.signUp()
        #expect(try fixture.signIn(previousToken: "not a token").session.email == "Ann@Example.com")
        #expect(try fixture.count("session") == 2)
    }

    @Test func aFailedSignInKeepsThePreviousSession() throws {
        let fixture = try TestFixture()
        let first = try fixture.signUp()
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(password: "wrong horse", previousToken: first.token.encoded) }
        #expect(try fixture.services.sessions.find(token: first.token.encoded) != nil)
    }

    @Test func aHashMadeWithOtherParametersIsUpgradedAtSignIn() throws {
        // Given an account whose hash was made with older, different parameters
        let fixture = try TestFixture()
        let accountId = try fixture.signUp(password: "correct horse").session.accountId
        let old = PasswordHasher(parameters: .init(memoryKiB: 128, iterations: 2, parallelism: 1), random: SeededRandomSource(seed: 9))
        let oldHash = try old.hash("correct horse")
        try fixture.database.write { tx in try tx.execute("UPDATE account SET passwordHash = ?", [oldHash]) }
        fixture.clock.advance(by: 60)
        // When a wrong password is tried, nothing changes
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(password: "wrong horse") }
        #expect(try storedHash(fixture) == oldHash)
        // When the right one is used
        _ = try fixture.signIn(password: "correct horse")
        // Then the hash uses the current parameters and still verifies
        let account = try #require(try fixture.database.read { tx in
            try tx.row("SELECT passwordHash, updatedAt FROM account WHERE id = ?", [accountId])
        })
        let passwordHash: String = try account.decode("passwordHash")
        #expect(passwordHash.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(fixture.services.hasher.verify("correct horse", against: passwordHash))
        #expect(try account.decode("updatedAt") as Date == fixture.clock.now())
        #expect(try fixture.signIn(password: "correct horse").session.accountId == accountId)
    }

    @Test func aCurrentHashIsLeftAlone() throws {
        let fixture = try TestFixture()
        try fixture.signUp()
        let before = try storedHash(fixture)
        _ = try fixture.signIn()
        #expect(try storedHash(fixture) == before)
    }

    @Test func withConfirmationRequiredAnUnconfirmedAddressIsToldOnlyAfterTheRightPassword() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "wrong horse") }
        #expect(throws: AccountError.unconfirmed) { try fixture.signIn("ann@example.com") }
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        #expect(try fixture.signIn("ann@example.com").session.email == "ann@example.com")
    }

    @Test func signingInWithASecondaryAddressShowsThePrimaryOne() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        try fixture.database.write { tx in
            try tx.execute("""
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                VALUES (?, 'Ann@Work.example', 'ann@work.example', FALSE, 1, 0)
                """, [accountId])
        }
        let grant = try fixture.signIn("ann@work.example")
        #expect(grant.session.accountId == accountId)
        #expect(grant.session.email == "ann@example.com")
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.email == "ann@example.com")
    }

    @Test func anAddedAddressSignsInOnlyOnceVerified() throws {
        // Given an account with an added address that waits for its link
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 2))
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        try fixture.services.addresses.add("Ann@Work.example", to: accountId, client: ClientInfo())
        // Then it is refused like an unknown address, even with the right password, and the account is not locked by it
        for _ in 0..<3 {
            #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@work.example") }
        }
        #expect(try fixture.services.lockout.lockedUntil(accountId: accountId) == nil)
        let failure = try fixture.database.read { tx in
            try tx.row("SELECT accountId, detail FROM audit WHERE event = 'sign_in_failed' ORDER BY id DESC")
        }
        #expect(failure?["accountId"] as Int64? == nil)
        // When it is confirmed, it signs in to the account, showing the primary address
        let token = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'address_verification'")
        }?.firstMatch(of: /addressVerification\(token: "([A-Za-z0-9_-]+)"\)/)).1
        _ = try fixture.services.confirmation.confirm(token: String(token))
        let grant = try fixture.signIn("ANN@work.example")
        #expect(grant.session.accountId == accountId)
        #expect(grant.session.email == "ann@example.com")
    }

    @Test func withoutRequiredConfirmationAnUnverifiedPrimaryAddressStillSignsIn() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        #expect(try fixture.database.read { tx in
            try tx.value(Bool.self, "SELECT verifiedAt IS NULL AS unverified FROM emailAddress WHERE isPrimary")
        } == true)
        #expect(try fixture.signIn("ann@example.com").session.accountId == accountId)
    }

    func storedHash(_ fixture: TestFixture) throws -> String? {
        try fixture.database.read { tx in try tx.value(String.self, "SELECT passwordHash FROM account") }
    }

    @Test func anAccountWithoutAPasswordFailsLikeAWrongPasswordAndCountsTowardsItsLock() throws {
        // Given an account made through a provider (passwordHash '')
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 3))
        let accountId = try fixture.socialSignIn(identity(email: "ann@example.com")).grant.session.accountId
        #expect(try storedHash(fixture) == "")
        // Then no password signs in, not even the empty one, and each try counts
        for password in ["", "correct horse", "anything"] {
            #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: password) }
        }
        #expect(try fixture.audits(.signInFailed).map { $0["detail"] as String } == Array(repeating: "no password (provider sign-in only)", count: 3))
        #expect(try fixture.services.lockout.lockedUntil(accountId: accountId) != nil)
        #expect(try storedHash(fixture) == "", "never upgraded to a hash of what was typed")
    }
}
