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

    /// A lookup that cannot read the file (it cannot be opened, here because it was moved away; or SQLITE_BUSY) is
    /// storage trouble, which pages answer with 503 and Retry-After: the seam's `StorageError.unavailable`.
    @Test func aLookupThatCannotOpenTheFileIsStorageUnavailable() throws {
        let (services, _, folder) = try fileServices()
        let moved = folder + "-moved"
        defer { for path in [folder, moved] { try? FileManager.default.removeItem(atPath: path) } }
        guard case .signedIn(let grant) = try services.registration.signUp(TestFixture.form(email: "Ann@Example.com"), client: ClientInfo()) else {
            Issue.record("sign-up did not sign in"); return
        }
        try FileManager.default.moveItem(atPath: folder, toPath: moved)
        // A thread that has not looked anything up yet opens its read-only connection now, and cannot.
        let outcome = Locked<Result<SessionInfo?, any Error>?>(nil)
        Thread { outcome.change { $0 = Result { try services.sessions.find(token: grant.token.encoded) } } }.start()
        let result = try #require(outcome.withLock(waitingUntil: { $0 != nil }) { $0 } ?? nil)
        #expect(throws: StorageError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(StorageFailure.isUnavailable(error), "\(error)")
            guard case StorageError.unavailable(let detail) = error else { Issue.record("not unavailable: \(error)"); return }
            #expect(detail.contains("cannot open"))
        }
    }
}

private final class Counter: @unchecked Sendable { var value = 0 }
