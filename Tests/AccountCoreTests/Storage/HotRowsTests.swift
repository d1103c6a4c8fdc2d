// HotRowsTests.swift: what sign-ins and failures no longer write: an attempt from a blocked address writes no failure
// row and at most one audit row per minute; the pruner's session deletions tell no other host (PostgreSQL), while a
// revocation still does; the audit totals survive pruning on both backends (auditCount holds what pruning took).
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct HotRowsTests {
    let attacker = ClientInfo(userAgent: "guesser", remoteAddress: "10.0.0.66")
    let owner = ClientInfo(userAgent: "owner", remoteAddress: "10.0.0.7")

    func failSignIn(_ fixture: TestFixture, _ email: String = "ann@example.com", password: String = "wrong guess", client: ClientInfo) {
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(email, password: password, client: client) }
    }

    func blockedAudits(_ fixture: TestFixture) throws -> [String] {
        try fixture.services.audit.list(AuditFilter(event: .signInFailed, remoteAddress: attacker.remoteAddress)).map(\.detail)
            .filter { $0.hasPrefix("client address blocked") }.reversed()
    }

    /// Blocked: every attempt gets the usual answer (even with the right password) until the block ends, but only the
    /// first of each minute is audited (the next one says how many were left out), and none adds a failure row.
    @Test func aBlockedAddressWritesNothingPerAttempt() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(addressMaxFailures: 3, addressDuration: 300))
        try fixture.signUp("ann@example.com")
        for n in 0..<3 { failSignIn(fixture, "nobody\(n)@example.com", client: attacker) }
        #expect(try fixture.count("signInFailure") == 3)
        for _ in 0..<5 { failSignIn(fixture, client: attacker) }
        failSignIn(fixture, password: "correct horse", client: attacker)
        #expect(try fixture.count("signInFailure") == 3, "no failure row per blocked attempt")
        #expect(try blockedAudits(fixture) == ["client address blocked"])
        fixture.clock.advance(by: 61)
        failSignIn(fixture, client: attacker)
        failSignIn(fixture, client: attacker)
        #expect(try blockedAudits(fixture) == ["client address blocked", "client address blocked; 5 more not recorded"])
        #expect(try fixture.signIn(client: owner).session.accountId == 1, "another address is not blocked")
        fixture.clock.advance(by: 240)
        #expect(try fixture.signIn(client: attacker).session.accountId == 1, "the block lasts as long as before")
    }

    /// The memory of blocked groups is bounded: when full, groups whose minute has passed are forgotten first.
    @Test func blockedAttemptsAreCountedInBoundedMemory() {
        let attempts = BlockedAttempts(interval: 60, capacity: 2)
        #expect(attempts.admit("a", at: 0) == 0 && attempts.admit("a", at: 1) == nil && attempts.admit("b", at: 2) == 0)
        #expect(attempts.admit("c", at: 3) == 0, "full: nothing has passed its minute, so all are forgotten")
        #expect(attempts.admit("a", at: 4) == 0, "a starts again")
        #expect(attempts.admit("a", at: 5) == nil && attempts.admit("a", at: 64) == 1)
    }

    /// Totals count every event whether its rows were pruned or not, and pruning writes what it took to auditCount.
    @Test func auditTotalsSurvivePruningOnEitherBackend() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        for _ in 0..<3 { try fixture.signIn("ann@example.com") }
        failSignIn(fixture, client: attacker)
        #expect(try fixture.services.audit.counts(of: [.signIn, .signInFailed, .lockout]) == ["sign_in": 3, "sign_in_failed": 1])
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM auditCount WHERE total > 0") } == 0,
                "an insert counts nothing")
        let old = try fixture.count("audit")
        fixture.clock.advance(by: 400 * 86400)
        try fixture.signIn("ann@example.com")
        var retention = fixture.services.retention
        retention.batchSize = 2
        #expect(try retention.prune(olderThan: 86400)[0].deleted == old, "in batches of two")
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT total FROM auditCount WHERE event = 'sign_in'") } == 3)
        #expect(try fixture.services.audit.counts(of: [.signIn, .signInFailed, .lockout]) == ["sign_in": 4, "sign_in_failed": 1])
    }

    /// A CGI process prunes one batch per kind after its answer (`pruneOnce(maxBatches: 1)`): ended rows go a batch at a
    /// time, the rest at the next request.
    @Test func oneCGIPassDeletesOneBatchOfEachEndedKind() throws {
        let fixture = try TestFixture(session: SessionPolicy(lifetime: 600, idleTimeout: 300, rememberLifetime: 3600, touchInterval: 60))
        try fixture.signUp("ann@example.com")
        for _ in 0..<2 { try fixture.signIn("ann@example.com") }
        for _ in 0..<2 { failSignIn(fixture, client: attacker) }
        fixture.clock.advance(by: 7200)
        var retention = fixture.services.retention
        retention.batchSize = 1
        let pruner = Pruner(retention: retention, logger: fixture.services.reminder.logger)
        #expect(pruner.pruneOnce(maxBatches: 1) != nil)
        #expect(try fixture.count("session") == 1, "three ended: one expired batch, one idle batch")
        #expect(try fixture.count("signInFailure") == 1)
        #expect(pruner.pruneOnce(maxBatches: 1) != nil)
        #expect(try fixture.count("session") == 0)
        #expect(try fixture.count("signInFailure") == 0)
    }

    /// PostgreSQL: the pruner deletes ended sessions without a NOTIFY (every cache refuses them already); a sign-out
    /// still tells every host. Notifications arrive in commit order, so the sign-out's being first proves the purge
    /// sent none.
    @Test func thePrunersSessionDeletionsTellNoHost() throws {
        guard TestDatabase.backend == .postgresql else { return }
        let shared = try SharedTestDatabase.make()
        let fixture = try TestFixture(session: SessionPolicy(lifetime: 600, idleTimeout: 300, rememberLifetime: 3600, touchInterval: 60),
                                      database: try shared.open())
        let listener = try PostgresConnection(keywords: PostgresSettings(url: shared.location).keywords)
        try listener.simple("LISTEN frontdoor_sessions")
        let ended = try fixture.signUp("bob@example.com")
        try fixture.signUp("ann@example.com")
        fixture.clock.advance(by: 700)
        let kept = try fixture.signIn("ann@example.com")
        #expect(try fixture.services.retention.deleteEnded()[.expiredSessions] == 2, "bob's and ann's first")
        #expect(try fixture.sessionRow(ended) == nil)
        try fixture.services.sessions.revoke(token: kept.token.encoded)
        var heard: [String] = []
        // Only account ids: the listeners' own heartbeat payloads on the channel are not session changes.
        while heard.isEmpty { heard = try listener.notifications(waitingUpTo: 5).filter { Int64($0) != nil } }
        #expect(heard == ["\(kept.session.accountId)"], "only the sign-out's")
    }
}
