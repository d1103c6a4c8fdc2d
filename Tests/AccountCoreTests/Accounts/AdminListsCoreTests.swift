// AdminListsCoreTests.swift: the core operations behind the admin pages for invitations, groups and the audit log:
// an invitation with a chosen lifetime, a group's members, and the audit trail read a page (offset, before an id,
// a person's account or address) or all of it in pages.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct AdminListsCoreTests {
    let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

    // MARK: Invitations with a lifetime

    @Test func anInvitationLastsTheLifetimeChosenWithinBounds() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite, inviteLifetime: 7 * 86400))
        let invitations = fixture.services.invitations
        let issued = try invitations.create(email: "bob@example.com", lifetime: 3600, client: cli)
        #expect(issued.expiresAt == fixture.clock.now().addingTimeInterval(3600))
        #expect(try invitations.invitation(token: issued.token) == "bob@example.com")
        #expect(try invitations.create(email: "eve@example.com", client: cli).expiresAt == fixture.clock.now().addingTimeInterval(7 * 86400),
                "create without a lifetime still takes invite.lifetime")
        #expect(try invitations.create(email: "max@example.com", lifetime: 90 * 86400, client: cli).expiresAt
                == fixture.clock.now().addingTimeInterval(90 * 86400))
        for lifetime: TimeInterval in [0, 3599, 90 * 86400 + 1, -1] {
            #expect(invalidKeys { _ = try invitations.create(email: "x@example.com", lifetime: lifetime, client: cli) }
                    == ["expires_in:admin_invitations_lifetime_invalid"], "\(lifetime)")
        }
        #expect(invalidKeys { _ = try invitations.create(email: "nope", lifetime: 3600, client: cli) } == ["email:invalid_email"])
        fixture.clock.advance(by: 3601)
        #expect(try invitations.invitation(token: issued.token) == nil, "expired after its hour")
    }

    @Test func aChosenLifetimeIsRefusedWhenSignUpIsClosed() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .closed))
        #expect(throws: AccountError.signUpClosed) {
            try fixture.services.invitations.create(email: "bob@example.com", lifetime: 3600, client: cli)
        }
    }

    // MARK: A group's members

    @Test func aGroupsMembersComeByAddressWithoutCase() throws {
        let fixture = try TestFixture()
        let zed = try fixture.signUp("zed@example.com").session.accountId
        let ann = try fixture.signUp("Ann@example.com").session.accountId
        _ = try fixture.signUp("bob@example.com")
        let groups = fixture.services.groups
        try groups.add(name: "Ops", client: cli)
        try groups.add(name: "empty", client: cli)
        try groups.change(accountId: zed, adding: ["ops"], removing: [], client: cli)
        try groups.change(accountId: ann, adding: ["ops"], removing: [], client: cli)
        let found = try groups.members(of: " OPS ")
        #expect(found.name == "Ops")
        #expect(found.members == [GroupMember(accountId: ann, email: "Ann@example.com"), GroupMember(accountId: zed, email: "zed@example.com")])
        #expect(try groups.members(of: "empty").members.isEmpty)
        #expect(throws: GroupError.noGroup("nope")) { try groups.members(of: "nope") }
    }

    // MARK: The audit trail, paged

    /// Records `count` rows of `event` with details `prefix0`, `prefix1` … (oldest first).
    func record(_ fixture: TestFixture, _ count: Int, _ event: AuditEvent = .passkeyRenamed, accountId: Int64? = nil, email: String? = nil,
                prefix: String = "n") throws {
        for n in 0..<count {
            try fixture.services.audit.record(event, accountId: accountId, email: email, client: cli, detail: "\(prefix)\(n)")
        }
    }

    @Test func offsetAndBeforeIdPageTheRowsNewestFirst() throws {
        let fixture = try TestFixture()
        try record(fixture, 10)
        let audit = fixture.services.audit
        let all = try audit.list(AuditFilter(event: .passkeyRenamed, limit: 100))
        #expect(all.map(\.detail) == (0..<10).reversed().map { "n\($0)" })
        var filter = AuditFilter(event: .passkeyRenamed, limit: 3)
        filter.offset = 3
        #expect(try audit.list(filter).map(\.detail) == ["n6", "n5", "n4"])
        filter.offset = 0
        filter.beforeId = all[4].id
        #expect(try audit.list(filter).map(\.detail) == ["n4", "n3", "n2"])
    }

    @Test func aPersonIsTheirAccountOrTheirAddressWhenAskedSo() throws {
        let fixture = try TestFixture()
        try record(fixture, 1, accountId: 7, email: "new@example.com", prefix: "account-")
        try record(fixture, 1, accountId: nil, email: "OLD@example.com", prefix: "address-")
        try record(fixture, 1, accountId: 8, email: "other@example.com", prefix: "other-")
        var filter = AuditFilter(accountId: 7, email: "old@example.com", limit: 100)
        #expect(try fixture.services.audit.list(filter).isEmpty, "both must match by default")
        filter.accountOrEmail = true
        #expect(try fixture.services.audit.list(filter).map(\.detail) == ["address-0", "account-0"])
    }

    @Test func aPageSaysWhetherMoreFollowAndNamesTheAccountsThatExist() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session.accountId
        var byAnn = cli
        byAnn.actorId = ann
        try fixture.services.audit.record(.unlock, accountId: 999, email: "gone@example.com", client: byAnn, detail: "x")
        let page = try fixture.services.audit.page(AuditFilter(limit: 1))
        #expect(page.entries.map(\.event) == ["unlock"])
        #expect(page.hasMore, "the sign-up's row follows")
        #expect(page.addresses == [ann: "ann@example.com"], "the actor named; account 999 does not exist")
        let rest = try fixture.services.audit.page(AuditFilter(limit: 100))
        #expect(!rest.hasMore)
        #expect(rest.entries.count == 2)
    }

    @Test func forEachReadsEveryRowInPagesUpToTheMaximum() throws {
        let fixture = try TestFixture()
        try record(fixture, 10)
        try record(fixture, 3, .unlock)
        var seen: [String] = []
        let count = try fixture.services.audit.forEach(AuditFilter(event: .passkeyRenamed, limit: 1), pageSize: 3) { seen.append($0.detail) }
        #expect(count == 10)
        #expect(seen == (0..<10).reversed().map { "n\($0)" })
        seen = []
        #expect(try fixture.services.audit.forEach(AuditFilter(event: .passkeyRenamed), maximum: 4, pageSize: 3) { seen.append($0.detail) } == 4)
        #expect(seen == ["n9", "n8", "n7", "n6"])
    }
}
