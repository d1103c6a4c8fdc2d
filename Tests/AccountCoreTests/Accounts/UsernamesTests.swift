// UsernamesTests.swift: usernames made from the address and chosen at sign-up, unique without case under racing
// threads, filled for accounts an older host made, and read by the session lookup; on the run's backend.
import AccountRules
import Foundation
import GRDB
import StorageTestKit
import Testing
@testable import AccountCore

@Suite struct UsernamesTests {
    let client = ClientInfo(userAgent: "Test/1", remoteAddress: "198.51.100.9")

    func username(_ fixture: TestFixture, _ accountId: Int64) throws -> String? {
        try fixture.database.read { tx in try tx.username(of: accountId) }
    }

    func form(_ email: String, username: String) -> [String: String] {
        TestFixture.form(email: email).merging(["username": username]) { _, new in new }
    }

    @Test func aUsernameIsMadeFromTheAddressAndAClashGetsTheNextNumber() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("Ann@A.example").session.accountId
        let ann2 = try fixture.signUp("ann@b.example").session.accountId
        let odd = try fixture.signUp("ANN.Lee+news@c.example").session.accountId
        let digits = try fixture.signUp("12345@d.example").session.accountId
        let admin = try fixture.signUp("admin@e.example").session.accountId
        #expect(try username(fixture, ann) == "ann")
        #expect(try username(fixture, ann2) == "ann-2", "ann@a and ann@b are two people, so two usernames")
        #expect(try username(fixture, odd) == "ann.leenews")
        #expect(try username(fixture, digits) == "u12345", "never all digits: it could name another account's id")
        #expect(try username(fixture, admin) == "admin-2", "a stranger's admin@ address does not make `admin`")
    }

    @Test func aMadeUsernameStaysWhenThePrimaryAddressChanges() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        try fixture.database.write { tx in
            _ = try tx.execute("UPDATE emailAddress SET address = 'zoe@example.com', normalizedAddress = 'zoe@example.com' WHERE accountId = ?",
                               [grant.session.accountId])
        }
        let session = try #require(try fixture.services.sessions.find(token: grant.token.encoded))
        #expect(session.email == "zoe@example.com")
        #expect(session.username == "ann")
    }

    @Test func theSessionLookupReadsTheUsernameAndTheDisplayName() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("bob@example.com")
        var session = try #require(try fixture.services.sessions.find(token: grant.token.encoded))
        #expect(session.username == "bob" && session.displayName == "")
        try fixture.services.profile.update(accountId: grant.session.accountId, form: ["display_name": "Bob Li"], client: client)
        session = try #require(try fixture.services.sessions.find(token: grant.token.encoded))
        #expect(session.displayName == "Bob Li")
    }

    @Test func signUpTakesAChosenUsernameOnlyWhenTheSettingAllowsIt() throws {
        let off = try TestFixture()
        let made = try #require(try signedIn(off.services.registration.signUp(form("cy@example.com", username: "Cyrus"), client: client)))
        #expect(try username(off, made) == "cy", "off: the form's username is ignored")

        let optional = try TestFixture(usernames: .optional)
        let chosen = try #require(try signedIn(optional.services.registration.signUp(form("dee@example.com", username: "Dee.Dee"), client: client)))
        #expect(try username(optional, chosen) == "Dee.Dee", "kept as typed")
        let empty = try #require(try signedIn(optional.services.registration.signUp(form("eve@example.com", username: ""), client: client)))
        #expect(try username(optional, empty) == "eve")
        #expect(invalidKeys { _ = try optional.services.registration.signUp(form("x@example.com", username: "dee.dee"), client: client) }
                == ["username:taken"], "unique without case")
        #expect(invalidKeys { _ = try optional.services.registration.signUp(form("x@example.com", username: "42"), client: client) }
                == ["username:username_start"])
        #expect(invalidKeys { _ = try optional.services.registration.signUp(form("x@example.com", username: "Root"), client: client) }
                == ["username:username_reserved"])
        #expect(invalidKeys { _ = try optional.services.registration.signUp(form("x@example.com", username: "ann lee"), client: client) }
                == ["username:username_characters"])
        let required = try TestFixture(usernames: .required)
        #expect(invalidKeys { _ = try required.services.registration.signUp(form("x@example.com", username: " "), client: client) }
                == ["username:blank"])
    }

    @Test func aChosenNameCanBeChangedInSettingsButNotWhenOff() throws {
        let fixture = try TestFixture(usernames: .optional)
        let ann = try fixture.signUp("ann@example.com").session.accountId
        try fixture.signUp("bob@example.com")
        try fixture.services.usernames.change(accountId: ann, to: "Annie", client: client)
        #expect(try username(fixture, ann) == "Annie")
        #expect(invalidKeys { try fixture.services.usernames.change(accountId: ann, to: "BOB", client: client) } == ["username:taken"])
        #expect(try fixture.audits(.usernameChanged).count == 1)
        let off = try TestFixture()
        let cy = try off.signUp("cy@example.com").session.accountId
        #expect(throws: AccountError.refused("username_fixed")) { try off.services.usernames.change(accountId: cy, to: "cyrus", client: client) }
    }

    @Test func aUsernameChangedWithTheProfileIsWrittenWithItOrNotAtAll() throws {
        let fixture = try TestFixture(usernames: .optional)
        let ann = try fixture.signUp("ann@example.com").session.accountId
        try fixture.signUp("bob@example.com")
        let tooLong = String(repeating: "x", count: 101)
        // A bad display name: the new username is refused with it, and both problems are named at once.
        #expect(invalidKeys { try fixture.services.profile.update(accountId: ann, form: ["display_name": tooLong], username: "bad name",
                                                                  client: client) }.sorted() == ["display_name:too_long", "username:username_characters"])
        #expect(invalidKeys { try fixture.services.profile.update(accountId: ann, form: ["display_name": tooLong], username: "Annie",
                                                                  client: client) } == ["display_name:too_long"])
        #expect(try username(fixture, ann) == "ann", "nothing written while the profile was refused")
        // A taken username: the display name is not written either.
        #expect(invalidKeys { try fixture.services.profile.update(accountId: ann, form: ["display_name": "Ann"], username: "BOB",
                                                                  client: client) } == ["username:taken"])
        #expect(try fixture.services.profile.values(of: ann).displayName == "")
        try fixture.services.profile.update(accountId: ann, form: ["display_name": "Ann"], username: "Annie", client: client)
        #expect(try username(fixture, ann) == "Annie" && fixture.services.profile.values(of: ann).displayName == "Ann")
        #expect(try fixture.audits(.usernameChanged).count == 1)
    }

    @Test func racersWithOneLocalPartAllGetAccountsWithDistinctNames() throws {
        let fixture = try TestFixture()
        let client = client
        let created = Racers.outcomes(8) { index in
            _ = try fixture.services.registration.signUp(TestFixture.form(email: "sam@host\(index).example"), client: client)
        }
        #expect(created.allSatisfy { $0 == nil }, "a clash on the made name is never a failed sign-up: \(created)")
        let names = try fixture.database.read { tx in try tx.values(String.self, "SELECT username FROM account") }
        #expect(Set(names) == Set(["sam"] + (2...8).map { "sam-\($0)" }))
    }

    @Test func racersChoosingOneNameInTwoCasesMakeOneAccount() throws {
        let fixture = try TestFixture(usernames: .optional)
        let client = client
        let outcomes = Racers.outcomes(6) { index in
            _ = try fixture.services.registration.signUp(self.form("zed\(index)@example.com", username: index % 2 == 0 ? "Zed" : "zED"),
                                                          client: client)
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.compactMap { $0 as? AccountError }.allSatisfy {
            if case .invalid(let errors) = $0 { return errors.entries.map(\.error.key) == ["taken"] } else { return false }
        }, "the losers hear `taken` on the username, never an address problem: \(outcomes)")
        #expect(try fixture.count("account") == 1)
    }

    @Test func theIndexRefusesTheSameNameInAnotherCaseWhateverTheCode() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session.accountId
        let bob = try fixture.signUp("bob@example.com").session.accountId
        #expect(throws: StorageError.self) {
            try fixture.database.write { tx in _ = try tx.execute("UPDATE account SET username = 'ANN' WHERE id = ?", [bob]) }
        }
        #expect(try username(fixture, ann) == "ann")
    }

    @Test func anAccountAnOlderHostMadeGetsItsNameAtItsFirstLookupAndFromTheFill() throws {
        let fixture = try TestFixture()
        try fixture.signUp("kim@example.com")
        // An older host's sign-up: its INSERT names no username (AccountStore.insertAccount before v15-usernames).
        let token = SecretToken(random: fixture.random)
        let digest = token.digest
        let (older, other) = try fixture.database.write { tx -> (Int64, Int64) in
            var ids: [Int64] = []
            for address in ["Kim@Other.example", "lou@example.com"] {
                let id = try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt, language) VALUES ('x', 1, 1, NULL) RETURNING id")
                _ = try tx.insert("""
                    INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                    VALUES (?, ?, ?, TRUE, 1, 1) RETURNING id
                    """, [id, address, address.lowercased()])
                ids.append(id)
            }
            try tx.insertSession(digest: digest, accountId: ids[0], now: fixture.clock.now(), expiresAt: fixture.clock.now() + 3600,
                                 rememberMe: false, client: ClientInfo(), kind: .browser)
            return (ids[0], ids[1])
        }
        #expect(try username(fixture, older) == nil)
        let session = try #require(try fixture.database.backend.findBrowserSession(digest: digest))
        #expect(session.username == "")
        let found = try #require(try fixture.services.sessions.find(token: token.encoded))
        #expect(found.username == "kim-2")
        #expect(try username(fixture, older) == "kim-2")
        #expect(try fixture.services.usernames.fillMissing() == 1)
        #expect(try username(fixture, other) == "lou")
        #expect(try fixture.services.usernames.fillMissing() == 0)
    }
}

/// Sign-up's account id when it signed in.
private func signedIn(_ outcome: SignUpOutcome) -> Int64? {
    if case .signedIn(let grant) = outcome { return grant.session.accountId }
    return nil
}

@Suite struct UsernamesMigrationTests {
    /// SQLite file migrated to the step before usernames, with accounts; `migrate` names every one.
    @Test func migratingFillsTheAccountsThereAre() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-usernames-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/frontdoor.sqlite"
        try SQLiteBackend.migrator.migrate(GRDB.DatabaseQueue(path: path), upTo: "v14-one-session-account-index")
        chmod(path, 0o600)
        let old = try AppDatabase.openExisting(path: path, requireCurrent: false)
        try old.write { tx in
            for (n, address) in ["ann@a.example", "ann@b.example", "root@c.example"].enumerated() {
                let id = try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES ('x', ?, 1) RETURNING id", [Double(n)])
                _ = try tx.insert("""
                    INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                    VALUES (?, ?, ?, TRUE, 1, 1) RETURNING id
                    """, [id, address, address])
            }
        }
        try old.migrate()
        let names = try old.read { tx in try tx.values(String.self, "SELECT username FROM account ORDER BY id") }
        #expect(names == ["ann", "ann-2", "root-2"])
    }
}
