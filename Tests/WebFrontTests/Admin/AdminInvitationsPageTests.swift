// AdminInvitationsPageTests.swift: admin/invitations: the open invitations, creating one (mailed, or its link shown
// once), revoking one (its link stops working), the field errors, and sign-up closed or open.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminInvitationsPageTests {
    func auditRows(_ site: AdminSite, _ event: AuditEvent) throws -> [AuditEntry] {
        try site.test.services.audit.list(AuditFilter(event: event, limit: 100))
    }

    /// The link shown once on the page, if any.
    func shownLink(_ response: Response) -> String? {
        response.text.firstMatch(of: /<p class="invitation-link"><code>([^<]+)<\/code><\/p>/).map { String($0.1) }
    }

    @Test func thePageListsTheOpenInvitationsWithARevokeFormEach() throws {
        let site = try AdminSite()
        _ = try site.test.services.invitations.create(email: "bob@example.com", client: adminTestCLI)
        let page = site.admin.get(site.uri("invitations"))
        #expect(page.status == 200)
        #expect(page.text.contains("<td data-label=\"Address\">bob@example.com</td>"))
        #expect(page.text.contains("action=\"/account/admin/invitations/revoke\""))
        #expect(page.text.contains("name=\"email\" value=\"bob@example.com\""))
        #expect(page.text.contains("<form method=\"post\" action=\"/account/admin/invitations\""), "the create form")
        #expect(page.text.contains("Sign-up is open"), "the default signup: open is said")
        // The configured lifetime (7 days) first and chosen, then the others
        #expect(page.text.contains("<option value=\"7d\" selected>7 days (the default)</option><option value=\"1d\">1 day</option><option value=\"30d\">30 days</option>"))
    }

    @Test func anInvitationNotMailedShowsItsLinkOnceWithTheChosenLifetime() throws {
        let site = try AdminSite()
        let response = site.admin.post(site.uri("invitations"), ["email": " bob@example.com ", "expires_in": "1d"])
        #expect(response.status == 200)
        let link = try #require(shownLink(response))
        #expect(link.hasPrefix("http://127.0.0.1:8080/account/sign_up?invite="))
        let token = String(link.split(separator: "=").last ?? "")
        #expect(try site.test.services.invitations.invitation(token: token) == "bob@example.com")
        let open = try site.test.services.invitations.list()
        #expect(open.map(\.address) == ["bob@example.com"])
        #expect(open.first?.expiresAt == site.test.clock.now().addingTimeInterval(86400))
        let row = try #require(try auditRows(site, .inviteCreated).first)
        #expect(row.actorId == site.adminId)
        #expect(row.detail == "")
        #expect(try site.test.deliveredMail().allSatisfy { !$0.readable.contains("invite=") }, "nothing mailed")
        // Shown once: the page again has no link
        #expect(shownLink(site.admin.get(site.uri("invitations"))) == nil)
    }

    @Test func theConfiguredLifetimeIsTakenAsIsAndAMailedInvitationIsSentNotShown() throws {
        let site = try AdminSite()
        let response = site.admin.post(site.uri("invitations"), ["email": "bob@example.com", "expires_in": "7d", "send_mail": "1"])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/account/admin/invitations")
        let page = site.admin.get(site.uri("invitations"))
        #expect(page.text.contains("The invitation was created and will be sent by email."))
        #expect(shownLink(page) == nil)
        #expect(try site.test.services.invitations.list().first?.expiresAt == site.test.clock.now().addingTimeInterval(7 * 86400))
        let link = try #require(try site.test.link(containing: "invite="))
        #expect(link.hasPrefix("http://127.0.0.1:8080/account/sign_up?invite="), "the mail's link is built the same way")
        let row = try #require(try auditRows(site, .inviteCreated).first)
        #expect(row.actorId == site.adminId)
        #expect(row.detail == "mailed")
    }

    @Test func aBadAddressOrLifetimeIsShownBesideItsFieldAndNothingIsMade() throws {
        let site = try AdminSite()
        let malformed = site.admin.post(site.uri("invitations"), ["email": "not an address", "expires_in": "1d"])
        #expect(malformed.status == 422)
        #expect(malformed.text.contains("Email is not a valid email address"))
        #expect(malformed.text.contains("value=\"not an address\""), "the typed address kept")
        let taken = site.admin.post(site.uri("invitations"), ["email": "ann@example.com", "expires_in": "1d"])
        #expect(taken.status == 422)
        #expect(taken.text.contains("Email has already been taken"))
        for lifetime in ["999d", "0h", "soon", ""] {
            let refused = site.admin.post(site.uri("invitations"), ["email": "bob@example.com", "expires_in": lifetime])
            #expect(refused.status == 422, "\(lifetime)")
            #expect(refused.text.contains("Link lifetime must be between 1 hour and 90 days"), "\(lifetime)")
            #expect(refused.text.contains("aria-describedby=\"expires_in-error\""))
        }
        #expect(try site.test.services.invitations.list().isEmpty)
        #expect(try auditRows(site, .inviteCreated).isEmpty)
    }

    @Test func revokingStopsTheLinkAndIsAuditedAsTheAdmins() throws {
        let site = try AdminSite()
        let issued = try site.test.services.invitations.create(email: "bob@example.com", client: adminTestCLI)
        let response = site.admin.post(site.uri("invitations/revoke"), ["email": "bob@example.com"])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/account/admin/invitations")
        #expect(try site.test.services.invitations.invitation(token: issued.token) == nil)
        #expect(site.admin.get(site.uri("invitations")).text.contains("The invitation was revoked"))
        #expect(try auditRows(site, .inviteRevoked).map(\.actorId) == [site.adminId])
        // Nothing left to revoke: said as an alert
        #expect(site.admin.post(site.uri("invitations/revoke"), ["email": "bob@example.com"]).status == 303)
        #expect(site.admin.get(site.uri("invitations")).text.contains("That address has no open invitation."))
    }

    @Test func withSignUpClosedThePageSaysInvitationsAreOffAndHasNoForm() throws {
        let site = try ClosedSite()
        let page = site.admin.get("/account/admin/invitations")
        #expect(page.status == 200)
        #expect(page.text.contains("Invitations are off: sign-up is closed on this site."))
        #expect(!page.text.contains("<form method=\"post\" action=\"/account/admin/invitations\""))
        let response = site.admin.post("/account/admin/invitations", ["email": "bob@example.com", "expires_in": "1d"])
        #expect(response.status == 303)
        #expect(try site.test.services.invitations.list().isEmpty)
    }

    @Test func inFrenchThePageHasItsOwnWords() throws {
        let site = try AdminSite()
        try site.test.services.profile.setLanguage("fr", of: site.adminId)
        let page = site.admin.get(site.uri("invitations"))
        #expect(page.text.contains("Inviter quelqu’un"))
        #expect(page.text.contains("7 jours (par défaut)"))
    }
}

/// An admin signed in on a site whose sign-up is closed (made by the administration, as `frontdoor user add` does).
struct ClosedSite {
    let test: TestApp
    let admin: TestBrowser

    init() throws {
        test = try makeApp { configuration in
            configuration.signUp = .closed
            configuration.admin.requireSecondFactor = false
        }
        let id = try test.services.administration.add(email: "admin@example.com", password: "correct horse", confirmed: true, client: adminTestCLI)
        try test.services.groups.add(name: "admins", client: adminTestCLI)
        try test.services.groups.change(accountId: id, adding: ["admins"], removing: [], client: adminTestCLI)
        admin = TestBrowser(test.app)
        #expect(admin.post("/account/sign_in", ["email": "admin@example.com", "password": "correct horse"]).status == 303)
    }
}
