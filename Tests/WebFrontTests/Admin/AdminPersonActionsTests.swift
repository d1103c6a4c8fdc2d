// AdminPersonActionsTests.swift: every action on a person's admin page does what it says, is audited with the admin
// as actor, and comes back to the page with a flash; the destructive ones ask the admin's password again when stale.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminPersonActionsTests {
    /// The newest audit row of `event` for ann.
    func lastRow(_ site: AdminSite, _ event: AuditEvent) throws -> AuditEntry? {
        try site.test.services.audit.list(AuditFilter(accountId: site.annId, event: event, limit: 1)).first
    }

    /// POSTs `action` for ann (`id` 2 unless `form` says) and checks it comes back to her page.
    @discardableResult
    func act(_ site: AdminSite, _ action: String, _ form: [String: String] = [:], back: String = "person?id=2") -> Response {
        let response = site.admin.post(site.uri(action), ["id": String(site.annId)].merging(form) { _, new in new })
        #expect(response.status == 303, "\(action)")
        #expect(response.header("Location") == site.uri(back), "\(action)")
        return response
    }

    /// The flash the next page shows.
    func flash(_ site: AdminSite) -> String {
        let text = site.admin.get(site.uri("person?id=2")).text
        return text.firstMatch(of: /<div class="flash flash-(\w+)" role="\w+">([^<]*)</).map { "\($0.1): \($0.2)" } ?? ""
    }

    func queuedMail(_ site: AdminSite, kind: String) throws -> [String] {
        try site.test.services.database.read { tx in
            try tx.values(String.self, "SELECT recipientKey FROM mailQueue WHERE kind = ? ORDER BY id", [kind])
        }
    }

    @Test func revokingOneSessionOrAllSignsAnnOut() throws {
        let site = try AdminSite()
        let second = TestBrowser(site.test.app)
        #expect(second.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse"]).status == 303)
        let sessions = try site.test.services.administration.liveSessions(accountId: site.annId)
        #expect(sessions.count == 2)
        act(site, "person/sessions/revoke", ["handle": try #require(sessions.first?.handle)])
        #expect(flash(site) == "notice: That session was signed out.")
        #expect(try lastRow(site, .sessionRevoked)?.actorId == site.adminId)
        #expect(try site.test.services.administration.liveSessions(accountId: site.annId).count == 1)
        act(site, "person/sessions/revoke", ["handle": "00112233445566778899aabbccddeeff"])
        #expect(flash(site).hasPrefix("alert: "))

        act(site, "person/sessions/revoke_all")
        #expect(site.ann.get("/account/auth/check").status == 401)
        #expect(second.get("/account/auth/check").status == 401)
        #expect(try lastRow(site, .sessionRevoked)?.actorId == site.adminId)
        #expect(site.admin.get("/account/auth/check").status == 200, "the admin's own session stays")
        #expect(site.admin.get(site.uri("person?id=2")).text.contains("by admin admin@example.com"))
    }

    @Test func lockingShutsAnnOutAndUnlockingLetsHerBackIn() throws {
        let site = try AdminSite()
        act(site, "person/lock", ["duration": "forever"])
        #expect(flash(site) == "alert: Choose how long to lock.")
        #expect(try site.test.services.lockout.lockedUntil(accountId: site.annId) == nil)

        act(site, "person/lock", ["duration": "7d"])
        #expect(flash(site).hasPrefix("notice: "))
        #expect(try site.test.services.lockout.lockedUntil(accountId: site.annId) == site.test.clock.now().addingTimeInterval(7 * 86_400))
        #expect(try lastRow(site, .lockout)?.actorId == site.adminId)
        #expect(site.ann.get("/account/auth/check").status == 401, "her sessions ended")
        let form = ["email": "ann@example.com", "password": "correct horse"]
        #expect(TestBrowser(site.test.app).post("/account/sign_in", form).status != 303)
        #expect(site.admin.get(site.uri("person?id=2")).text.contains(#"action="/account/admin/person/unlock""#))

        act(site, "person/unlock")
        #expect(try lastRow(site, .unlock)?.actorId == site.adminId)
        #expect(TestBrowser(site.test.app).post("/account/sign_in", form).status == 303)
    }

    @Test func anAdminCannotLockOrDeleteThemselfHere() throws {
        let site = try AdminSite()
        let lock = site.admin.post(site.uri("person/lock"), ["id": "1", "duration": "1h"])
        #expect(lock.header("Location") == site.uri("person?id=1"))
        #expect(try site.test.services.lockout.lockedUntil(accountId: site.adminId) == nil)
        let delete = site.admin.post(site.uri("person/delete"), ["id": "1", "confirm_email": "admin@example.com"])
        #expect(delete.header("Location") == site.uri("person?id=1"))
        #expect(site.admin.get(site.uri("person?id=1")).text.contains("You cannot delete your own account here"))
        #expect(try site.test.services.administration.resolve("admin@example.com") == site.adminId)
    }

    @Test func anAdminCannotTakeThemselfOutOfTheAdminsButAnotherAdminCan() throws {
        let site = try AdminSite()
        let own = site.admin.post(site.uri("person/groups"), ["id": "1", "remove": "Admins"])
        #expect(own.header("Location") == site.uri("person?id=1"))
        #expect(site.admin.get(site.uri("person?id=1")).text.contains("You cannot take yourself out of the administrators’ group here"))
        #expect(try site.test.services.groups.groups(of: site.adminId) == ["admins"])
        try site.test.services.groups.change(accountId: site.annId, adding: ["admins"], removing: [], client: adminTestCLI)
        #expect(site.ann.post(site.uri("person/groups"), ["id": "1", "remove": "admins"]).status == 303)
        #expect(try site.test.services.groups.groups(of: site.adminId).isEmpty)
    }

    @Test func groupsAreAddedAndRemovedAndAnUnknownOneIsAnAlert() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "staff", client: adminTestCLI)
        act(site, "person/groups", ["add": "staff"])
        #expect(try site.test.services.groups.groups(of: site.annId) == ["staff"])
        #expect(try lastRow(site, .groupMemberAdded)?.actorId == site.adminId)
        act(site, "person/groups", ["add": "nope"])
        #expect(flash(site) == "alert: There is no such group.")
        act(site, "person/groups", ["remove": "STAFF"])
        #expect(try site.test.services.groups.groups(of: site.annId).isEmpty)
        #expect(try lastRow(site, .groupMemberRemoved)?.actorId == site.adminId)
        act(site, "person/groups", [:])
        #expect(flash(site) == "alert: Choose a group.")
        try site.test.services.groups.change(accountId: site.annId, adding: ["staff"], removing: [], client: adminTestCLI)
        act(site, "person/groups", ["remove": "staff", "back": "group"], back: "group?name=staff")
    }

    @Test func unlinkingAProviderAndNeverTheLastWayToSignIn() throws {
        let site = try AdminSite()
        let now = site.test.clock.now()
        _ = try site.test.services.database.write { tx in
            try tx.execute("INSERT INTO socialIdentity (accountId, provider, subject, displayName, createdAt) VALUES (?, ?, ?, ?, ?)",
                           [site.annId, "github", "42", "Ann", now])
        }
        #expect(site.admin.get(site.uri("person?id=2")).text.contains(#"name="provider" value="github""#))
        act(site, "person/unlink", ["provider": "github"])
        #expect(try site.test.services.socialLinks.identities(accountId: site.annId).isEmpty)
        #expect(try lastRow(site, .identityUnlinked)?.actorId == site.adminId)
        try site.test.services.database.write { tx in
            try tx.execute("INSERT INTO socialIdentity (accountId, provider, subject, displayName, createdAt) VALUES (?, ?, ?, ?, ?)",
                           [site.annId, "github", "42", "Ann", now])
            try tx.execute("UPDATE account SET passwordHash = '' WHERE id = ?", [site.annId])
        }
        act(site, "person/unlink", ["provider": "github"])
        let refusal = flash(site)
        #expect(refusal.hasPrefix("alert: ") && refusal.hasSuffix("cannot be unlinked: it is this person’s only way to sign in."), "\(refusal)")
        #expect(try site.test.services.socialLinks.identities(accountId: site.annId).count == 1, "her only way to sign in stays")
        act(site, "person/unlink", ["provider": "gitlab"])
        #expect(flash(site) == "alert: That provider is not linked.")
    }

    @Test func confirmingByHandNeedsAReasonThenAResetLinkCanGo() throws {
        let site = try AdminSite()
        act(site, "person/password_reset")
        #expect(flash(site) == "alert: The primary address is not confirmed, so no reset link was sent.")
        act(site, "person/confirmation", ["email": "ann@example.com"])
        #expect(try queuedMail(site, kind: "confirmation") == ["ann@example.com"])
        #expect(try lastRow(site, .confirmationSent)?.actorId == site.adminId)

        act(site, "person/confirm", ["reason": " "])
        #expect(flash(site) == "alert: Give a reason to confirm by hand.")
        act(site, "person/confirm", ["reason": "checked her badge"])
        let confirmed = try #require(try lastRow(site, .emailConfirmed))
        #expect(confirmed.detail == "by an admin: checked her badge" && confirmed.actorId == site.adminId)
        act(site, "person/confirmation", ["email": "ann@example.com"])
        #expect(flash(site) == "alert: That address has nothing to confirm.")

        act(site, "person/password_reset")
        #expect(flash(site) == "notice: A password reset link was mailed.")
        #expect(try queuedMail(site, kind: "password_reset") == ["ann@example.com"])
        #expect(try lastRow(site, .passwordResetSent)?.actorId == site.adminId)
    }

    @Test func resettingTheSecondFactorAsksAFreshPasswordAndMailsThePerson() throws {
        let site = try AdminSite()
        let now = site.test.clock.now()
        _ = try site.test.services.database.write { tx in
            try tx.execute("INSERT INTO oneTimeCode (accountId, sealedSecret, createdAt, confirmedAt) VALUES (?, ?, ?, ?)",
                           [site.annId, Data([1, 2, 3]), now, now])
        }
        #expect(site.admin.get(site.uri("person?id=2")).text.contains(#"action="/account/admin/person/second_factor/reset""#))
        site.test.clock.advance(by: 301)
        let stale = site.admin.post(site.uri("person/second_factor/reset"), ["id": "2"])
        #expect(stale.status == 303)
        #expect(stale.header("Location")?.hasPrefix("/account/settings/reauthenticate") == true)
        #expect(try site.test.services.signInMethods.hasSecondFactor(accountId: site.annId))

        #expect(site.admin.post("/account/settings/reauthenticate", ["password": "correct horse"]).status == 303)
        act(site, "person/second_factor/reset")
        #expect(try !site.test.services.signInMethods.hasSecondFactor(accountId: site.annId))
        #expect(try lastRow(site, .secondFactorRemoved)?.actorId == site.adminId)
        #expect(try queuedMail(site, kind: "second_factor_removed") == ["ann@example.com"])
        act(site, "person/second_factor/reset")
        #expect(flash(site) == "notice: This person had no second factor.")
    }

    @Test func deletingNeedsTheAddressTypedAgainAndAFreshPassword() throws {
        let site = try AdminSite()
        let page = site.admin.get(site.uri("person/delete?id=2"))
        #expect(page.status == 200 && page.text.contains(#"name="confirm_email""#) && page.text.contains("ann@example.com"))
        let wrong = site.admin.post(site.uri("person/delete"), ["id": "2", "confirm_email": "bob@example.com"])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("This is not the account’s primary address.") && wrong.text.contains(#"aria-invalid="true""#))
        #expect(site.admin.post(site.uri("person/delete"), ["id": "2"]).status == 422)
        #expect(try site.test.services.administration.resolve("ann@example.com") == site.annId)

        site.test.clock.advance(by: 301)
        let stale = site.admin.post(site.uri("person/delete"), ["id": "2", "confirm_email": "ann@example.com"])
        #expect(stale.status == 303)
        #expect(stale.header("Location")?.hasPrefix("/account/settings/reauthenticate") == true)
        #expect(try site.test.services.administration.resolve("ann@example.com") == site.annId)

        #expect(site.admin.post("/account/settings/reauthenticate", ["password": "correct horse"]).status == 303)
        let done = site.admin.post(site.uri("person/delete"), ["id": "2", "confirm_email": " ANN@example.com "])
        #expect(done.status == 303 && done.header("Location") == site.uri("people"))
        #expect(throws: AdministrationError.self) { try site.test.services.administration.resolve("ann@example.com") }
        #expect(try lastRow(site, .accountDeleted)?.actorId == site.adminId)
        #expect(site.admin.get(site.uri("people")).text.contains("The account was deleted."))
        #expect(site.ann.get("/account/auth/check").status == 401)
    }
}
