// SessionLookupTests.swift: the per-thread read-only session lookup on a database file sees every committed change.
import AccountRules
import Foundation
import GRDB
import Locking
import Logging
import Testing
@testable import AccountCore

struct SessionLookupTests {
    func fileServices() throws -> (AccountServices, FixedClock, String) {
        let folder = NSTemporaryDirectory() + "frontdoor-lookup-" + UUID().uuidString
        let database = try AppDatabase.open(path: folder + "/db.sqlite")
        let clock = FixedClock()
        let configuration = CoreConfiguration(password: PasswordPolicy(hashing: cheapHashing), mail: MailPolicy(confirmationRequired: false))
        let services = AccountServices(database: database, configuration: configuration, validator: AccountForms.signUp(),
                                       composer: LineComposer(), transport: OutboxTransport(folder: folder + "/outbox"),
                                       logger: Logger(label: "test"), clock: clock, random: SeededRandomSource(seed: 7))
        return (services, clock, folder)
    }

    @Test func aFileDatabaseLooksSessionsUpOnItsOwnConnectionsAndSeesSignOutAtOnce() throws {
        let (services, _, folder) = try fileServices()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect((services.database.backend as? SQLiteBackend)?.sessionLookup != nil)
        guard case .signedIn(let grant) = try services.registration.signUp(TestFixture.form(email: "Ann@Example.com"), client: ClientInfo()) else {
            Issue.record("sign-up did not sign in"); return
        }
        let found = try #require(try services.sessions.find(token: grant.token.encoded))
        #expect(found.accountId == 1 && found.email == "Ann@Example.com" && found == grant.session)
        try services.authentication.signOut(token: grant.token.encoded, client: ClientInfo())
        #expect(try services.sessions.find(token: grant.token.encoded) == nil)
        #expect(try services.sessions.find(token: SecretToken(random: SeededRandomSource(seed: 99)).encoded) == nil)
    }

    @Test func manyThreadsLookUpAtOnceWhileAnotherWrites() throws {
        let (services, clock, folder) = try fileServices()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard case .signedIn(let grant) = try services.registration.signUp(TestFixture.form(email: "Ann@Example.com"), client: ClientInfo()) else {
            Issue.record("sign-up did not sign in"); return
        }
        let failures = Lock(), counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<200 {
                do {
                    if worker == 0 && round % 20 == 0 {   // a writer meanwhile: lastSeenAt moves, sign-ups commit
                        clock.advance(by: 61)
                        _ = try services.registration.signUp(TestFixture.form(email: "u\(round)@example.com"), client: ClientInfo())
                    }
                    if try services.sessions.find(token: grant.token.encoded)?.accountId != 1 { failures.withLock { counter.value += 1 } }
                } catch {
                    failures.withLock { counter.value += 1 }
                }
            }
        }
        #expect(counter.value == 0)
        let lastSeen = try #require(try services.sessions.find(token: grant.token.encoded)).lastSeenAt
        #expect(lastSeen == clock.now(), "the touch written by the writer connection is read back by the lookup")
    }
}

private final class Counter: @unchecked Sendable { var value = 0 }
