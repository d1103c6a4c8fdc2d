// SignInLockOrderTests.swift: every kind of sign-in at once, while expired and idle sessions wait to be pruned. A
// sign-in transaction must take no lock that another kind takes in the other order (a deadlock: on PostgreSQL one of
// them waits a second for detection, runs again, and after five the person gets a 503), so PostgreSQL's own count of
// deadlocks in the database must not move. On SQLite the one writer makes them take turns; the test still checks that
// every sign-in succeeds and that the pruner, not a request, removes what ended.
import AccountRules
import Foundation
import Locking
import StorageTestKit
import Testing
@testable import AccountCore

@Suite struct SignInLockOrderTests {
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.7")
    let device = ClientInfo(userAgent: "FrontdoorKit/1.0", remoteAddress: "198.51.100.7")

    /// PostgreSQL's deadlock count for the database, read on a connection of its own once every other backend on it has
    /// gone (a backend sends its statistics when it exits, so none is left unsent); nil on SQLite.
    func deadlocks(_ shared: SharedTestDatabase) throws -> Int64? {
        guard shared.backend == .postgresql else { return nil }
        let observer = try PostgresConnection(keywords: PostgresSettings(url: shared.location).keywords)
        let others = "SELECT COUNT(*) AS others FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        let deadline = Date() + 60
        while try observer.run(others, []).rows.first?.decode("others") as Int64? != 0 {
            guard Date() < deadline else { throw FixtureError("the racers' connections did not close") }
            usleep(20_000)
        }
        _ = try observer.run("SELECT pg_stat_clear_snapshot()", [])
        return try observer.run("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()", []).rows.first?.decode("deadlocks")
    }

    /// `count` sessions of `accountId` that have ended: half past their absolute lifetime, half idle too long.
    func endedSessions(_ fixture: TestFixture, of accountId: Int64, count: Int) throws {
        let now = fixture.clock.now()
        let idle = SessionPolicy.default.idleTimeout
        try fixture.database.write { tx in
            for index in 0..<count {
                let digest = Data(fixture.random.bytes(32))
                if index.isMultiple(of: 2) {
                    try tx.insertSession(digest: digest, accountId: accountId, now: now - 7200, expiresAt: now - 60, rememberMe: true,
                                         client: client, kind: .browser)
                } else {
                    try tx.insertSession(digest: digest, accountId: accountId, now: now - idle - 60, expiresAt: now + 3600, rememberMe: false,
                                         client: client, kind: .browser)
                }
            }
        }
    }

    /// Password, provider, linking (a pending identity and the password) and residence sign-ins racing, three racers of
    /// each kind signing in several times, while two more keep adding ended sessions (as time passing does): every one
    /// signs in, and no deadlock happened.
    @Test func mixedSignInsWithEndedSessionsWaitingNeverDeadlock() throws {
        let shared = try SharedTestDatabase.make()
        defer { shared.remove() }
        let before = try deadlocks(shared)
        let perKind = 3, repeats = 6, feeders = 2
        do {
            let fixture = try TestFixture(signUp: SignUpPolicy(maxPerAddress: 0), database: try shared.open())
            let ann = try fixture.signUp("ann@example.com").session.accountId
            let bob = try fixture.socialSignIn(identity("sub-bob", email: "bob@example.com")).grant.session.accountId
            try endedSessions(fixture, of: ann, count: 100)
            var pending: [String] = []
            var tickets: [ResidenceTicket] = []
            for index in 0..<perKind * repeats {
                let cat = "cat-\(index)@example.com"
                try fixture.signUp(cat)
                try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1 WHERE verifiedAt IS NULL") }
                pending.append(try fixture.socialPending(identity("sub-cat-\(index)", email: cat)))
                let dan = "dan-\(index)@example.com"
                let ticket = try fixture.services.residences.register(email: dan, client: device)
                let message = try #require(try fixture.database.read { tx in
                    try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'residence' AND recipientKey = ? ORDER BY id DESC", [dan])
                })
                try fixture.services.residences.approve(token: String(try #require(message.firstMatch(of: /residence\(token: "([A-Za-z0-9_-]+)"/)).1),
                                                        client: client)
                tickets.append(ticket)
            }
            let (links, collections) = (pending, tickets)
            let signingIn = Locked(4 * perKind)
            let errors = Racers.outcomes(4 * perKind + feeders) { racer in
                guard racer < 4 * perKind else {
                    while signingIn.withLock({ $0 > 0 }) { try endedSessions(fixture, of: racer.isMultiple(of: 2) ? ann : bob, count: 4) }
                    return
                }
                defer { signingIn.change { $0 -= 1 } }
                for time in 0..<repeats {
                    let index = (racer / 4) * repeats + time
                    switch racer % 4 {
                    case 0:
                        _ = try fixture.signIn("ann@example.com", client: client)
                    case 1:
                        _ = try fixture.socialSignIn(identity("sub-bob", email: "bob@example.com"))
                    case 2:
                        _ = try fixture.services.social.linkWithPassword(pendingToken: links[index], binding: browser, password: "correct horse",
                                                                         client: client, here: nil)
                    default:
                        let collection = try fixture.services.residences.collect(id: collections[index].id, secret: collections[index].secret,
                                                                                 client: device)
                        guard case .verified = collection else { throw FixtureError("residence: \(collection)") }
                    }
                }
            }
            #expect(errors.compactMap { $0.map { "\($0)" } } == [], "every sign-in succeeds")
            #expect((fixture.database.backend.figures?.retries ?? 0) == 0, "no write ran again after a conflict")
        }
        let after = try deadlocks(shared)
        #expect(after == before, "deadlocks before \(before.map(String.init) ?? "-"), after \(after.map(String.init) ?? "-")")
    }
}
