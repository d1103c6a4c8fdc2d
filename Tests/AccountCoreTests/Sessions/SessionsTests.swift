import Foundation
import Testing
@testable import AccountCore

struct SessionsTests {
    /// Short times so that the arithmetic is easy to follow: 10 min lifetime, 5 min idle, 1 h remembered, touch each minute.
    static let policy = SessionPolicy(lifetime: 600, idleTimeout: 300, rememberLifetime: 3600, touchInterval: 60)

    @Test func aTokenFindsItsSessionWithTheAccountsPrimaryAddress() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp("Ann@Example.com")
        let found = try #require(try fixture.services.sessions.find(token: grant.token.encoded))
        #expect(found == grant.session)
        #expect(found.email == "Ann@Example.com")
        #expect(found.expiresAt == fixture.clock.now() + 600)
        #expect(found.digest == grant.token.digest)
    }

    @Test func unknownAndMalformedTokensFindNothing() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp()
        let unknown = SecretToken(random: SeededRandomSource(seed: 999)).encoded
        for token in ["", "garbage", unknown, grant.token.encoded + "A", String(grant.token.encoded.dropLast()), " " + grant.token.encoded] {
            #expect(try fixture.services.sessions.find(token: token) == nil, "\(token.debugDescription)")
        }
    }

    @Test func aSessionEndsAtItsAbsoluteLifetimeEvenWhenInUse() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp()
        for _ in 0..<2 {
            fixture.clock.advance(by: 250)
            #expect(try fixture.services.sessions.find(token: grant.token.encoded) != nil)
        }
        fixture.clock.advance(by: 99)                                   // 599 s
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) != nil)
        fixture.clock.advance(by: 1)                                    // 600 s
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) == nil)
    }

    @Test func anIdleSessionEndsButARememberedOneDoesNot() throws {
        // Given a normal and a remember-me session, both left unused
        let fixture = try TestFixture(session: Self.policy)
        let sessions = fixture.services.sessions
        let normal = try fixture.signUp()
        let remembered = try fixture.signIn(rememberMe: true)
        fixture.clock.advance(by: 299)
        #expect(sessions.isLive(normal.session, at: fixture.clock.now()), "one second before the idle timeout")
        // When the idle timeout is reached
        fixture.clock.advance(by: 1)
        // Then the normal one has ended and the remembered one lives on until its own lifetime
        #expect(try sessions.find(token: normal.token.encoded) == nil)
        #expect(try sessions.find(token: remembered.token.encoded) != nil)
        fixture.clock.advance(by: 3299)
        #expect(try sessions.find(token: remembered.token.encoded) != nil)
        fixture.clock.advance(by: 1)
        #expect(try sessions.find(token: remembered.token.encoded) == nil)
    }

    @Test func lastSeenAtIsWrittenAtMostOncePerTouchInterval() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp()
        let start = fixture.clock.now()
        func stored() throws -> Date? {
            try fixture.sessionRow(grant).map { Date(timeIntervalSince1970: $0["lastSeenAt"]) }
        }
        // Within the touch interval nothing is written
        fixture.clock.advance(by: 30)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.lastSeenAt == start)
        #expect(try stored() == start)
        // Once it is reached, the request's time is written
        fixture.clock.advance(by: 30)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.lastSeenAt == start + 60)
        #expect(try stored() == start + 60)
        // And not again until another interval has passed
        fixture.clock.advance(by: 59)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.lastSeenAt == start + 60)
        #expect(try stored() == start + 60)
        fixture.clock.advance(by: 1)
        _ = try fixture.services.sessions.find(token: grant.token.encoded)
        #expect(try stored() == start + 120)
    }

    @Test func useKeepsANormalSessionAlivePastTheIdleTimeout() throws {
        let fixture = try TestFixture(session: SessionPolicy(lifetime: 3600, idleTimeout: 300, rememberLifetime: 7200, touchInterval: 60))
        let grant = try fixture.signUp()
        for _ in 0..<5 {
            fixture.clock.advance(by: 200)
            #expect(try fixture.services.sessions.find(token: grant.token.encoded) != nil)
        }
    }

    @Test func revokingEndsTheSession() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp()
        let other = try fixture.signIn()
        try fixture.services.sessions.revoke(token: grant.token.encoded)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) == nil)
        #expect(try fixture.sessionRow(grant) == nil)
        #expect(try fixture.services.sessions.find(token: other.token.encoded) != nil, "other sessions stay")
        try fixture.services.sessions.revoke(token: grant.token.encoded)
        try fixture.services.sessions.revoke(token: "not a token")
        #expect(try fixture.count("session") == 1)
    }

    /// A sign-in deletes nothing: ended sessions are refused where they are, and the pruner removes them (in batches,
    /// a CGI process one batch per kind).
    @Test func endedSessionsAreRefusedAndThePrunerRemovesThem() throws {
        // Given a normal session, a remembered one, and enough time for the normal one to go idle
        let fixture = try TestFixture(session: Self.policy)
        let normal = try fixture.signUp()
        let remembered = try fixture.signIn(rememberMe: true)
        fixture.clock.advance(by: 300)
        // When someone signs in, nothing is removed, but the idle one no longer counts
        let fresh = try fixture.signIn()
        #expect(try fixture.count("session") == 3, "a sign-in purges nothing")
        #expect(try fixture.services.sessions.find(token: normal.token.encoded) == nil)
        #expect(try fixture.services.sessions.find(token: remembered.token.encoded) != nil)
        // Then the pruner removes the idle row; the others stay
        #expect(try fixture.services.retention.deleteEnded()[.idleSessions] == 1)
        #expect(try fixture.sessionRow(normal) == nil)
        #expect(try fixture.sessionRow(remembered) != nil)
        #expect(try fixture.sessionRow(fresh) != nil)
        // And past its absolute lifetime the remembered one goes too, in batches
        fixture.clock.advance(by: 3300)
        var retention = fixture.services.retention
        retention.batchSize = 1
        #expect(try retention.deleteEnded(maxBatches: 1)[.expiredSessions] == 1, "one batch of one (both have expired)")
        #expect(try retention.deleteEnded()[.expiredSessions] == 1, "the next pass takes the rest")
        #expect(try fixture.sessionRow(remembered) == nil)
        #expect(try fixture.count("session") == 0)
    }

    @Test func onlyTheTokensDigestIsStored() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp()
        let row = try #require(try fixture.database.read { tx in try tx.row("SELECT * FROM session") })
        #expect(row["digest"] as Data == grant.token.digest)
        for (column, value) in zip(row.columns, row.values) {
            #expect(String(sqlValue: value) != grant.token.encoded, "\(column)")
            #expect(Data(sqlValue: value) != Data(grant.token.bytes), "\(column)")
            if let text = String(sqlValue: value) { #expect(!text.contains(grant.token.encoded), "\(column)") }
        }
    }

    @Test func isLiveChecksTheLifetimeAndForNormalSessionsTheIdleTime() throws {
        let fixture = try TestFixture(session: Self.policy)
        let start = fixture.clock.now()
        var session = SessionInfo(digest: Data(count: 32), accountId: 1, email: "a@b.c", createdAt: start, lastSeenAt: start,
                                  expiresAt: start + 600, rememberMe: false)
        let sessions = fixture.services.sessions
        #expect(sessions.isLive(session, at: start + 299))
        #expect(!sessions.isLive(session, at: start + 300))
        session.rememberMe = true
        #expect(sessions.isLive(session, at: start + 599))
        #expect(!sessions.isLive(session, at: start + 600))
    }

    @Test func clientInfoIsKeptShort() throws {
        let fixture = try TestFixture(session: Self.policy)
        let grant = try fixture.signUp(client: ClientInfo(userAgent: String(repeating: "u", count: 2000), remoteAddress: String(repeating: "1", count: 100)))
        let row = try #require(try fixture.sessionRow(grant))
        #expect((row["userAgent"] as String).count == 512)
        #expect((row["remoteAddress"] as String).count == 64)
        #expect(ClientInfo(language: String(repeating: "a", count: 100)).language?.count == 35, "no longer than a language tag")
        #expect(ClientInfo(language: "fr").language == "fr" && ClientInfo().language == nil)
    }
}
