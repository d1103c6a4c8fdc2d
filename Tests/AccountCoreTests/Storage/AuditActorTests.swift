// AuditActorTests.swift: an admin's change on someone else's account carries the admin's id (`actorId`) in its audit
// row, on the test backend (SQLite in memory, or PostgreSQL with FRONTDOOR_TEST_BACKEND=postgresql); a person's own
// change and the CLI's carry none. The rows are listed by it too.
import Foundation
import Testing
@testable import AccountCore

struct AuditActorTests {
    @Test func theAdminsIdIsWrittenReadAndFilteredOn() throws {
        let fixture = try TestFixture()
        let admin = try fixture.signUp("admin@example.com").session.accountId
        let ann = try fixture.signUp("ann@example.com").session.accountId
        var acting = ClientInfo(userAgent: "Firefox", remoteAddress: "192.0.2.1")
        acting.actorId = admin
        try fixture.services.lockout.lock(accountId: ann, client: acting)
        try fixture.services.lockout.unlock(accountId: ann, client: ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local"))

        let rows = try fixture.services.audit.list(AuditFilter(accountId: ann))
        #expect(rows.map(\.event) == ["unlock", "lockout", "sign_up"])
        #expect(rows.map(\.actorId) == [nil, admin, nil])
        let byAdmin = try fixture.services.audit.list(AuditFilter(actorId: admin))
        #expect(byAdmin.map(\.event) == ["lockout"] && byAdmin.first?.accountId == ann)
        #expect(try fixture.services.audit.list(AuditFilter(actorId: ann)).isEmpty)
    }
}
