// GroupsTests.swift: the operator's groups (Groups.swift) on the test backend (SQLite in memory, or PostgreSQL with
// FRONTDOOR_TEST_BACKEND=postgresql): names unique without case, memberships all or nothing, removal refused while
// members remain unless forced, every change audited, and the session lookup naming the account's groups.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct GroupsTests {
    let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

    func audits(_ fixture: TestFixture, _ event: AuditEvent) throws -> [SQLRow] {
        try fixture.database.read { tx in try tx.rows("SELECT * FROM audit WHERE event = ? ORDER BY id", [event.rawValue]) }
    }

    @Test func namesAreUniqueWithoutCaseAndFollowTheRule() throws {
        let fixture = try TestFixture()
        let groups = fixture.services.groups
        #expect(try groups.add(name: " Admins ", client: cli) == "Admins")
        #expect(throws: GroupError.exists("Admins")) { try groups.add(name: "ADMINS", client: cli) }
        #expect(invalidKeys { try groups.add(name: "a,b", client: cli) } == ["group:invalid_group_name"])
        #expect(invalidKeys { try groups.add(name: "two words", client: cli) } == ["group:invalid_group_name"])
        #expect(invalidKeys { try groups.add(name: "", client: cli) } == ["group:blank"])
        try groups.add(name: "ops", client: cli)
        #expect(try groups.list().map(\.name) == ["Admins", "ops"])
        #expect(try audits(fixture, .groupCreated).map { $0["detail"] as String? } == ["group Admins", "group ops"])
    }

    @Test func membershipsChangeAllOrNothingAndAreAudited() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session.accountId
        let groups = fixture.services.groups
        try groups.add(name: "admins", client: cli)
        try groups.add(name: "Ops", client: cli)
        #expect(try groups.change(accountId: ann, adding: ["OPS", "admins"], removing: [], client: cli) == ["admins", "Ops"])
        #expect(try groups.change(accountId: ann, adding: ["admins"], removing: [], client: cli) == ["admins", "Ops"], "already in: no error")
        #expect(throws: GroupError.noGroup("nope")) {
            try groups.change(accountId: ann, adding: [], removing: ["ops", "nope"], client: cli)
        }
        #expect(try groups.groups(of: ann) == ["admins", "Ops"], "nothing changed: one name was unknown")
        #expect(try groups.change(accountId: ann, adding: [], removing: ["ops"], client: cli) == ["admins"])
        #expect(try audits(fixture, .groupMemberAdded).map { $0["detail"] as String? } == ["group Ops, by the operator", "group admins, by the operator"])
        #expect(try audits(fixture, .groupMemberRemoved).map { $0["accountId"] as Int64? } == [ann])
        #expect(try groups.list().map(\.members) == [1, 0])
        #expect(throws: AdministrationError.noAccount("999")) { try groups.change(accountId: 999, adding: ["admins"], removing: [], client: cli) }
    }

    @Test func aGroupWithMembersIsRemovedOnlyWhenForced() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session.accountId
        let bob = try fixture.signUp("bob@example.com").session.accountId
        let groups = fixture.services.groups
        try groups.add(name: "Admins", client: cli)
        try groups.add(name: "empty", client: cli)
        for account in [ann, bob] { try groups.change(accountId: account, adding: ["admins"], removing: [], client: cli) }
        #expect(throws: GroupError.hasMembers("Admins", count: 2)) { try groups.remove(name: "admins", force: false, client: cli) }
        #expect(try groups.groups(of: ann) == ["Admins"])
        let empty = try groups.remove(name: "EMPTY", force: false, client: cli)
        #expect(empty.name == "empty" && empty.members == 0)
        let admins = try groups.remove(name: "admins", force: true, client: cli)
        #expect(admins.name == "Admins" && admins.members == 2)
        #expect(try groups.groups(of: ann).isEmpty && groups.groups(of: bob).isEmpty)
        #expect(try fixture.count("groupMember") == 0 && fixture.count("accountGroup") == 0)
        #expect(try audits(fixture, .groupMemberRemoved).compactMap { $0["accountId"] as Int64? }.sorted() == [ann, bob].sorted())
        #expect(try audits(fixture, .groupDeleted).map { $0["detail"] as String? } == ["group empty, 0 member(s)", "group Admins, 2 member(s)"])
        #expect(throws: GroupError.noGroup("admins")) { try groups.remove(name: "admins", force: true, client: cli) }
    }

    @Test func theSessionLookupNamesTheAccountsGroupsSorted() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let groups = fixture.services.groups
        #expect(try fixture.database.backend.findBrowserSession(digest: grant.token.digest)?.groups == [])
        for name in ["zeta", "Alpha", "beta"] { try groups.add(name: name, client: cli) }
        try groups.change(accountId: grant.session.accountId, adding: ["zeta", "beta", "alpha"], removing: [], client: cli)
        #expect(try fixture.database.backend.findBrowserSession(digest: grant.token.digest)?.groups == ["Alpha", "beta", "zeta"])
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.groups == ["Alpha", "beta", "zeta"])
        #expect(try fixture.database.read { tx in try tx.browserSession(digest: grant.token.digest) }?.groups == ["Alpha", "beta", "zeta"])
    }

    @Test func deletingAnAccountTakesItOutOfItsGroups() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session.accountId
        try fixture.services.groups.add(name: "admins", client: cli)
        try fixture.services.groups.change(accountId: ann, adding: ["admins"], removing: [], client: cli)
        try fixture.services.administration.delete(accountId: ann, client: cli)
        #expect(try fixture.services.groups.list().map(\.members) == [0])
    }
}
