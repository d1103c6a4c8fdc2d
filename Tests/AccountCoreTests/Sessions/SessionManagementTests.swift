// SessionManagementTests.swift: a person lists their live sessions, revokes one, signs out everywhere else.
import Foundation
import Testing
@testable import AccountCore

struct SessionManagementTests {
    let client = ClientInfo(userAgent: "Firefox", remoteAddress: "10.0.0.1")

    @Test func theListHoldsTheAccountsLiveSessionsMostRecentlySeenFirst() throws {
        let fixture = try TestFixture(session: SessionsTests.policy)     // 5 min idle, touched each minute
        let first = try fixture.signUp("ann@example.com", client: ClientInfo(userAgent: "Firefox", remoteAddress: "10.0.0.1"))
        fixture.clock.advance(by: 10)
        let second = try fixture.signIn("ann@example.com", rememberMe: true, client: ClientInfo(userAgent: "Safari", remoteAddress: "10.0.0.2"))
        fixture.clock.advance(by: 10)
        let idle = try fixture.signIn("ann@example.com")
        try fixture.signUp("bob@example.com")
        fixture.clock.advance(by: 100)
        _ = try fixture.services.sessions.find(token: first.token.encoded)   // seen now

        let management = fixture.services.sessionManagement
        let listed = try management.list(accountId: first.session.accountId, current: second.token.digest)
        #expect(listed.map(\.handle) == [first, idle, second].map { SessionManagement.handle(for: $0.token.digest) })
        #expect(listed.map(\.isCurrent) == [false, false, true])
        #expect(listed[0].userAgent == "Firefox" && listed[0].remoteAddress == "10.0.0.1" && !listed[0].rememberMe)
        #expect(listed[0].lastSeenAt == fixture.clock.now() && listed[0].createdAt == fixture.clock.now() - 120)
        #expect(listed[2].rememberMe && listed[2].expiresAt == second.session.expiresAt && listed[2].userAgent == "Safari")
        #expect(listed.allSatisfy { $0.handle.count == 32 && $0.handle.allSatisfy(\.isHexDigit) })

        // Once the one not used since has been idle for 5 minutes, it is no longer listed
        fixture.clock.advance(by: 200)
        #expect(try management.list(accountId: first.session.accountId, current: second.token.digest).map(\.handle)
                == [first, second].map { SessionManagement.handle(for: $0.token.digest) })
    }

    @Test func revokingOneEndsItAtOnceAndIsAudited() throws {
        let fixture = try TestFixture()
        let mine = try fixture.signUp("ann@example.com")
        let other = try fixture.signIn("ann@example.com")
        let handle = SessionManagement.handle(for: other.token.digest)
        try fixture.services.sessionManagement.revoke(handle: handle.uppercased(), accountId: mine.session.accountId, client: client)
        #expect(try fixture.services.sessions.find(token: other.token.encoded) == nil)
        #expect(try fixture.services.sessions.find(token: mine.token.encoded) != nil)
        let audited = try #require(try fixture.services.audit.list(AuditFilter(event: .sessionRevoked)).first)
        #expect(audited.accountId == mine.session.accountId && audited.email == "ann@example.com")
        #expect(audited.detail == "session \(handle.prefix(12)) by its owner" && audited.userAgent == "Firefox")
        #expect(throws: AccountError.notFound, "already gone") {
            try fixture.services.sessionManagement.revoke(handle: handle, accountId: mine.session.accountId, client: client)
        }
    }

    @Test func anotherAccountsSessionOrAMalformedHandleIsNotFound() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        let bob = try fixture.signUp("bob@example.com")
        let management = fixture.services.sessionManagement
        for handle in [SessionManagement.handle(for: bob.token.digest), "", "zz", String(repeating: "g", count: 32),
                       SessionManagement.handle(for: bob.token.digest).prefix(30) + "", bob.token.digest.map { String(format: "%02x", $0) }.joined()] {
            #expect(throws: AccountError.notFound, "\(handle)") {
                try management.revoke(handle: handle, accountId: ann.session.accountId, client: client)
            }
        }
        #expect(try fixture.services.sessions.find(token: bob.token.encoded) != nil)
        #expect(try fixture.services.audit.list(AuditFilter(event: .sessionRevoked)).isEmpty)
    }

    @Test func revokingTheCurrentSessionIsAllowed() throws {
        let fixture = try TestFixture()
        let mine = try fixture.signUp("ann@example.com")
        try fixture.services.sessionManagement.revoke(handle: SessionManagement.handle(for: mine.token.digest),
                                                      accountId: mine.session.accountId, client: client)
        #expect(try fixture.services.sessions.find(token: mine.token.encoded) == nil)
    }

    @Test func signingOutEverywhereElseKeepsOnlyThisSession() throws {
        let fixture = try TestFixture()
        let mine = try fixture.signUp("ann@example.com")
        let others = try (0..<3).map { _ in try fixture.signIn("ann@example.com") }
        let bob = try fixture.signUp("bob@example.com")
        let management = fixture.services.sessionManagement
        #expect(try management.revokeOthers(accountId: mine.session.accountId, except: mine.token.digest, client: client) == 3)
        for grant in others { #expect(try fixture.services.sessions.find(token: grant.token.encoded) == nil) }
        #expect(try fixture.services.sessions.find(token: mine.token.encoded) != nil)
        #expect(try fixture.services.sessions.find(token: bob.token.encoded) != nil)
        #expect(try management.list(accountId: mine.session.accountId, current: mine.token.digest).map(\.isCurrent) == [true])
        #expect(try fixture.services.audit.list(AuditFilter(event: .sessionRevoked)).first?.detail == "3 other session(s) by its owner")
        #expect(try management.revokeOthers(accountId: mine.session.accountId, except: mine.token.digest, client: client) == 0)
    }

    @Test func handlesAreHexAndParseBack() {
        let digest = Data((0..<32).map { UInt8($0 * 7 % 256) })
        let handle = SessionManagement.handle(for: digest)
        #expect(handle.count == 32)
        #expect(SessionManagement.bytes(hex: handle) == digest.prefix(16))
        #expect(SessionManagement.bytes(hex: "0aFf") == Data([0x0a, 0xff]))
        #expect(SessionManagement.bytes(hex: "abc") == nil)
        #expect(SessionManagement.bytes(hex: "0x") == nil)
    }
}
