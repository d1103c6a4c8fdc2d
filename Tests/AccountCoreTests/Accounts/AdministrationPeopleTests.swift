// AdministrationPeopleTests.swift: what the admin people pages ask of the core: the paged, searched list, a person's
// picture, confirming by hand with a reason, ending a session by handle, mailing reset and confirmation links.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct AdministrationPeopleTests {
    let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")
    /// An admin's client (account 1 in these tests).
    var admin: ClientInfo {
        var client = ClientInfo(userAgent: "TestBrowser/1.0", remoteAddress: "192.0.2.1")
        client.actorId = 1
        return client
    }

    /// Accounts 1… with these addresses, confirmed, one a minute.
    func accounts(_ fixture: TestFixture, _ addresses: [String], confirmed: Bool = true) throws -> [Int64] {
        try addresses.map { address in
            fixture.clock.advance(by: 60)
            return try fixture.services.administration.add(email: address, password: "correct horse", confirmed: confirmed, client: cli)
        }
    }

    @Test func theListSearchesEveryAddressTheUsernameAndTheDisplayNameWithoutCase() throws {
        let fixture = try TestFixture()
        let ids = try accounts(fixture, ["ann@example.com", "bob@example.org", "carol@example.net"])
        _ = try fixture.services.addresses.add("Robert@Work.test", to: ids[1], client: cli)
        try fixture.database.write { tx in
            try tx.setDisplayName("Carol Quill", of: ids[2])
            #expect(try tx.setUsername("zedd", of: ids[0]))
        }
        let admin = fixture.services.administration
        #expect(try admin.people().people.map(\.account.id) == ids, "oldest first")
        #expect(try admin.people(search: "WORK.test").people.map(\.account.id) == [ids[1]], "a second, unverified address")
        #expect(try admin.people(search: "work.test").people.first?.account.email == "bob@example.org", "the row shows the primary")
        #expect(try admin.people(search: "quILL").people.map(\.account.id) == [ids[2]], "the display name")
        #expect(try admin.people(search: "ZEDD").people.map(\.account.id) == [ids[0]], "the username")
        #expect(try admin.people(search: " example.o ").people.map(\.account.id) == [ids[1]], "surrounding space ignored")
        #expect(try admin.people(search: "%").people.isEmpty, "the search text is literal")
        #expect(try admin.people(search: "_").people.isEmpty)
        #expect(try admin.people(search: "").people.count == 3, "an empty search is no filter")
    }

    @Test func theListPages() throws {
        let fixture = try TestFixture()
        let ids = try accounts(fixture, (1...5).map { "p\($0)@example.com" })
        let admin = fixture.services.administration
        let first = try admin.people(limit: 2, offset: 0)
        #expect(first.people.map(\.account.id) == Array(ids[0...1]) && first.hasMore)
        let second = try admin.people(limit: 2, offset: 2)
        #expect(second.people.map(\.account.id) == Array(ids[2...3]) && second.hasMore)
        let last = try admin.people(limit: 2, offset: 4)
        #expect(last.people.map(\.account.id) == [ids[4]] && !last.hasMore)
        #expect(try admin.people(search: "p5", limit: 1, offset: 0).hasMore == false)
    }

    @Test func eachRowCarriesGroupsSecondFactorsLockAndConfirmation() throws {
        let fixture = try TestFixture()
        let ids = try accounts(fixture, ["ann@example.com"]) + (try accounts(fixture, ["bob@example.com"], confirmed: false))
        let services = fixture.services
        try services.groups.add(name: "Staff", client: cli)
        try services.groups.add(name: "admins", client: cli)
        try services.groups.change(accountId: ids[0], adding: ["staff", "admins"], removing: [], client: cli)
        try services.lockout.lock(accountId: ids[1], for: 3600, client: cli)
        let now = fixture.clock.now()
        try fixture.database.write { tx in
            try tx.execute("INSERT INTO oneTimeCode (accountId, sealedSecret, createdAt, confirmedAt) VALUES (?, ?, ?, ?)",
                           [ids[0], Data([1, 2, 3]), now, now])
            _ = try tx.insertPasskey(Passkey(accountId: ids[0], credentialId: Data([9, 9]), publicKey: Data([1]), algorithm: -7,
                                             signCount: 0, aaguid: Data(count: 16), name: "Laptop", createdAt: now))
        }
        let rows = try services.administration.people().people
        #expect(rows[0].groups == ["admins", "Staff"])
        #expect(rows[0].oneTimeCodes && rows[0].passkeys == 1 && rows[0].account.confirmed && rows[0].account.lockedUntil == nil)
        #expect(rows[1].groups.isEmpty && !rows[1].oneTimeCodes && rows[1].passkeys == 0)
        #expect(!rows[1].account.confirmed)
        #expect(rows[1].account.lockedUntil == now.addingTimeInterval(3600))
        fixture.clock.advance(by: 3601)
        #expect(try services.administration.people().people[1].account.lockedUntil == nil, "a lock that ended is no lock")
    }

    @Test func confirmingByHandNeedsAReasonAndRecordsIt() throws {
        let fixture = try TestFixture()
        let ids = try accounts(fixture, ["admin@example.com"]) + (try accounts(fixture, ["ann@example.com"], confirmed: false))
        let administration = fixture.services.administration
        #expect(throws: AccountError.refused("admin_person_reason_missing")) {
            try administration.confirm(accountId: ids[1], reason: "  \n ", client: admin)
        }
        #expect(try administration.show(accountId: ids[1]).account.confirmed == false)
        #expect(try administration.confirm(accountId: ids[1], reason: " She phoned\nfrom her desk ", client: admin) == ["ann@example.com"])
        #expect(try administration.show(accountId: ids[1]).account.confirmed)
        let row = try #require(try fixture.services.audit.list(AuditFilter(accountId: ids[1], event: .emailConfirmed, limit: 1)).first)
        #expect(row.detail == "by an admin: She phoned from her desk")
        #expect(row.actorId == 1)
        #expect(try administration.confirm(accountId: ids[1], reason: "again", client: admin).isEmpty, "nothing left to confirm")
        #expect(throws: AdministrationError.noAccount("99")) { try administration.confirm(accountId: 99, reason: "x", client: admin) }
        // The CLI's confirmation keeps its wording.
        let bob = try accounts(fixture, ["bob@example.com"], confirmed: false)[0]
        try administration.confirm(accountId: bob, client: cli)
        #expect(try fixture.services.audit.list(AuditFilter(accountId: bob, event: .emailConfirmed, limit: 1)).first?.detail == "by the operator")
    }

    @Test func aPersonsPictureHasSessionsGroupsAndTheAdminsOfItsAuditRows() throws {
        let fixture = try TestFixture()
        let adminId = try accounts(fixture, ["admin@example.com"])[0]
        try fixture.signUp("ann@example.com")
        let ann = try fixture.services.administration.resolve("ann@example.com")
        try fixture.services.groups.add(name: "staff", client: cli)
        try fixture.services.groups.add(name: "other", client: cli)
        try fixture.services.groups.change(accountId: ann, adding: ["staff"], removing: [], client: admin)
        let person = try fixture.services.administration.person(accountId: ann)
        #expect(person.detail.account.email == "ann@example.com")
        #expect(person.sessions.count == 1)
        #expect(person.groups == ["staff"] && person.allGroups == ["other", "staff"])
        #expect(person.audit.first?.event == "group_member_added" && person.audit.first?.actorId == adminId)
        #expect(person.actors == [adminId: "admin@example.com"])
        #expect(!person.oneTimeCodes && person.passkeys.isEmpty && person.identities.isEmpty)
        #expect(throws: AdministrationError.noAccount("99")) { try fixture.services.administration.person(accountId: 99) }
    }

    @Test func aSessionEndsByItsHandleOnlyForItsAccount() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let other = try fixture.signUp("bob@example.com")
        let handle = SessionManagement.handle(for: grant.token.digest)
        let administration = fixture.services.administration
        #expect(throws: AccountError.notFound) {
            try administration.revokeSession(handle: handle, accountId: other.session.accountId, client: admin)
        }
        #expect(throws: AccountError.notFound) { try administration.revokeSession(handle: "nothex", accountId: grant.session.accountId, client: admin) }
        try administration.revokeSession(handle: handle, accountId: grant.session.accountId, client: admin)
        #expect(try fixture.sessionRow(grant) == nil)
        #expect(try fixture.sessionRow(other) != nil)
        let row = try #require(try fixture.services.audit.list(AuditFilter(event: .sessionRevoked, limit: 1)).first)
        #expect(row.actorId == 1 && row.detail == "session \(handle.prefix(12)) by the operator")
    }

    @Test func aResetLinkGoesToTheConfirmedPrimaryAddressOfAnUnlockedAccount() throws {
        let fixture = try TestFixture()
        let ids = try accounts(fixture, ["Ann@Example.com"]) + (try accounts(fixture, ["bob@example.com"], confirmed: false))
        let reminder = fixture.services.reminder
        #expect(try reminder.sendReminder(accountId: ids[0], client: admin) == "Ann@Example.com")
        #expect(try queued(fixture, kind: "password_reset") == ["ann@example.com"])
        let row = try #require(try fixture.services.audit.list(AuditFilter(accountId: ids[0], event: .passwordResetSent, limit: 1)).first)
        #expect(row.actorId == 1)
        #expect(throws: AccountError.refused("admin_person_mail_throttled")) { try reminder.sendReminder(accountId: ids[0], client: admin) }
        #expect(throws: AccountError.refused("admin_person_reset_unconfirmed")) { try reminder.sendReminder(accountId: ids[1], client: admin) }
        try fixture.services.lockout.lock(accountId: ids[0], client: cli)
        #expect(throws: AccountError.refused("admin_person_reset_locked")) { try reminder.sendReminder(accountId: ids[0], client: admin) }
        #expect(throws: AccountError.notFound) { try reminder.sendReminder(accountId: 99, client: admin) }
    }

    @Test func aConfirmationGoesAgainOnlyToAnUnverifiedAddressOfTheAccount() throws {
        let fixture = try TestFixture()
        let ids = try accounts(fixture, ["ann@example.com"], confirmed: false) + (try accounts(fixture, ["bob@example.com"]))
        let confirmation = fixture.services.confirmation
        #expect(try confirmation.resend(accountId: ids[0], email: "ANN@example.com", client: admin) == "ann@example.com")
        #expect(try queued(fixture, kind: "confirmation") == ["ann@example.com"])
        #expect(try fixture.services.audit.list(AuditFilter(accountId: ids[0], event: .confirmationSent, limit: 1)).first?.actorId == 1)
        #expect(throws: AccountError.refused("admin_person_mail_throttled")) {
            try confirmation.resend(accountId: ids[0], email: "ann@example.com", client: admin)
        }
        #expect(throws: AccountError.refused("admin_person_address_not_pending"), "verified") {
            try confirmation.resend(accountId: ids[1], email: "bob@example.com", client: admin)
        }
        #expect(throws: AccountError.refused("admin_person_address_not_pending"), "another account's") {
            try confirmation.resend(accountId: ids[1], email: "ann@example.com", client: admin)
        }
    }

    /// The recipients of queued mail of `kind`, in order.
    func queued(_ fixture: TestFixture, kind: String) throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT recipientKey FROM mailQueue WHERE kind = ? ORDER BY id", [kind]) }
    }
}
