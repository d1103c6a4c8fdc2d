// AuditLogTests.swift: operations write the audit trail in their transactions; listing filters and orders it.
import Foundation
import Testing
@testable import AccountCore

struct AuditLogTests {
    let browser = ClientInfo(userAgent: "Firefox/140", remoteAddress: "192.0.2.10")

    @Test func signUpSignInFailureAndSignOutAreRecordedWithTheClient() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp(client: browser)
        try fixture.services.authentication.signOut(token: grant.token.encoded, client: browser)
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(password: "not it at all", client: browser) }
        try fixture.signIn(client: browser)
        let rows = try fixture.services.audit.list(AuditFilter(accountId: 1))
        #expect(rows.map(\.event) == ["sign_in", "sign_in_failed", "sign_out", "sign_up"], "newest first")
        #expect(rows.allSatisfy { $0.remoteAddress == "192.0.2.10" && $0.userAgent == "Firefox/140" })
        #expect(rows[1].detail == "wrong password" && rows[3].email == "Ann@Example.com")
        #expect(try fixture.sessionRow(grant) == nil, "sign-out ended the session")
    }

    @Test func anUnknownAddressIsRecordedWithoutAnAccount() throws {
        let fixture = try TestFixture()
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ghost@example.com", client: browser) }
        let row = try #require(try fixture.services.audit.list(AuditFilter(event: .signInFailed)).first)
        #expect(row.accountId == nil && row.email == "ghost@example.com" && row.detail == "unknown address")
    }

    @Test func listingFiltersByAccountEventEmailAddressAndTime() throws {
        let fixture = try TestFixture()
        let audit = fixture.services.audit
        try audit.record(.signIn, accountId: 1, email: "Ann@Example.com", client: browser)
        fixture.clock.advance(by: 60)
        try audit.record(.signIn, accountId: 2, email: "bob@example.com", client: ClientInfo(remoteAddress: "198.51.100.1"))
        fixture.clock.advance(by: 60)
        try audit.record(.lockout, accountId: 1, email: "Ann@Example.com", client: browser, detail: String(repeating: "x", count: 900))
        #expect(try audit.list(AuditFilter(accountId: 1)).count == 2)
        #expect(try audit.list(AuditFilter(email: "ann@EXAMPLE.com")).count == 2)
        #expect(try audit.list(AuditFilter(event: .signIn)).map(\.accountId) == [2, 1])
        #expect(try audit.list(AuditFilter(remoteAddress: "198.51.100.1")).map(\.accountId) == [2])
        let start = fixture.clock.now() - 120
        #expect(try audit.list(AuditFilter(since: start + 1)).count == 2)
        #expect(try audit.list(AuditFilter(until: start + 1)).count == 1)
        #expect(try audit.list(AuditFilter(limit: 1)).map(\.event) == ["lockout"])
        #expect(try audit.list(AuditFilter(event: .lockout)).first?.detail.count == 500, "details are capped")
        #expect(try audit.counts() == ["sign_in": 2, "lockout": 1])
    }
}
