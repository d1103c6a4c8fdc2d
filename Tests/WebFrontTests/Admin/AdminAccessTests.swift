// AdminAccessTests.swift: the admin pages are for signed-in members of `admin.group`, proven by two factors when
// required, on every admin route: the table is walked, so a route added later is held to it without a new line here.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminAccessTests {
    /// Every admin route and method, by request URI.
    func adminRoutes(_ site: AdminSite) -> [(method: String, uri: String)] {
        let table = Routes.table(core: site.test.services)
        let admin = table.filter { $0.key == "admin" || $0.key.hasPrefix("admin/") }
        #expect(admin.count >= 21, "the admin routes")
        return admin.sorted { $0.key < $1.key }.flatMap { path, route in
            route.methods.keys.sorted().map { (method: $0, uri: "/account/" + path) }
        }
    }

    func send(_ browser: TestBrowser, _ method: String, _ uri: String) -> Response {
        // A form with this browser's own valid token: only the admin check can refuse it.
        method == "GET" ? browser.get(uri) : browser.post(uri, ["id": "1", "name": "admins", "email": "x@example.com"])
    }

    @Test func aSignedInPersonWhoIsNoAdminGets403OnEveryAdminRouteAndChangesNothing() throws {
        let site = try AdminSite()
        let auditRows = try site.test.services.audit.list(AuditFilter(limit: 1000)).count
        for (method, uri) in adminRoutes(site) {
            let response = send(site.ann, method, uri)
            #expect(response.status == 403, "\(method) \(uri)")
            #expect(response.text.contains("This page is for administrators only."), "\(method) \(uri)")
        }
        #expect(try site.test.services.audit.list(AuditFilter(limit: 1000)).count == auditRows, "nothing was done")
    }

    @Test func aSignedOutVisitorIsSentToSignInAndBack() throws {
        let site = try AdminSite()
        let stranger = TestBrowser(site.test.app)
        for (method, uri) in adminRoutes(site) where method == "GET" {
            let response = stranger.get(uri)
            #expect(response.status == 302, "\(uri)")
            #expect(response.header("Location")?.hasPrefix("/account/sign_in?rd=") == true, "\(uri)")
        }
    }

    @Test func anAdminTakenOutOfTheGroupLosesThePagesAtOnce() throws {
        let site = try AdminSite()
        #expect(site.admin.get(site.uri("people")).status == 200)
        try site.test.services.groups.change(accountId: site.adminId, adding: [], removing: ["admins"], client: adminTestCLI)
        #expect(site.admin.get(site.uri("people")).status == 403)
    }

    @Test func theGroupNameComesFromTheConfigurationAndComparesWithoutCase() throws {
        let site = try AdminSite { $0.admin.group = "Operators" }
        #expect(site.admin.get(site.uri("people")).status == 403, "in admins, not in Operators")
        try site.test.services.groups.add(name: "operators", client: adminTestCLI)
        try site.test.services.groups.change(accountId: site.adminId, adding: ["operators"], removing: [], client: adminTestCLI)
        #expect(site.admin.get(site.uri("people")).status == 200)
    }

    @Test func withSecondFactorsRequiredAnAdminSignedInWithOneFactorIsToldToSetOneUp() throws {
        let site = try AdminSite { $0.admin.requireSecondFactor = true }
        let response = site.admin.get(site.uri("people"))
        #expect(response.status == 403)
        #expect(response.text.contains("Administration needs two-step sign-in."))
    }

    @Test func theIndexLeadsToThePeopleList() throws {
        let site = try AdminSite()
        let response = site.admin.get("/account/admin")
        #expect(response.status == 302)
        #expect(response.header("Location") == "/account/admin/people")
    }

    @Test func adminPagesAreNeverCachedNorFramed() throws {
        let site = try AdminSite()
        let response = site.admin.get(site.uri("people"))
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("X-Frame-Options") == "DENY")
        #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
    }

    @Test func theStartPageLinksAdminsToTheAdminPagesAndNobodyElse() throws {
        let site = try AdminSite()
        #expect(site.admin.get("/account/").text.contains("href=\"/account/admin\""))
        #expect(!site.ann.get("/account/").text.contains("/account/admin"))
    }
}
