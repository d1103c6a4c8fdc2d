// AdminAuditPageTests.swift: admin/audit and admin/audit/csv: each filter narrows the rows (event, person by address
// and by number, client address, since/until), 100 rows a page, field errors for bad filters, and the download's
// headers, quoting, formula defusing, filters and paging.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminAuditPageTests {
    let day: TimeInterval = 86400

    /// Records `event` with `detail` (a marker the test looks for) from `address`.
    func record(_ site: AdminSite, _ event: AuditEvent, accountId: Int64? = nil, email: String? = nil, address: String = "192.0.2.1",
                userAgent: String = "Browser/1", _ detail: String) throws {
        try site.test.services.audit.record(event, accountId: accountId, email: email,
                                            client: ClientInfo(userAgent: userAgent, remoteAddress: address), detail: detail)
    }

    /// The markers (details starting with `m-`) the page at `query` shows, in order.
    func markers(_ site: AdminSite, _ query: String) -> [String] {
        site.admin.get(site.uri("audit?" + query)).text.matches(of: /lang="en">(m-[a-z0-9-]+)<\/td>/).map { String($0.1) }
    }

    @Test func thePageShowsTheNewestRowsFirstWithThePersonAndTheAdminLinked() throws {
        let site = try AdminSite()
        var byAdmin = adminTestCLI
        byAdmin.actorId = site.adminId
        _ = try site.test.services.invitations.create(email: "bob@example.com", client: byAdmin)
        try record(site, .signInFailed, accountId: site.annId, email: "ann@example.com", "m-failed")
        let page = site.admin.get(site.uri("audit"))
        #expect(page.status == 200)
        #expect(page.text.contains("<form method=\"get\" action=\"/account/admin/audit\" class=\"admin-filters\">"))
        #expect(page.text.contains("<option value=\"\">Any event</option>"))
        #expect(page.text.contains("<option value=\"oidc_logout_abandoned\" lang=\"en\">oidc_logout_abandoned</option>"), "every event")
        #expect(page.text.contains("<code lang=\"en\">sign_in_failed</code>"))
        #expect(page.text.contains("<a href=\"/account/admin/person?id=2\">ann@example.com</a>"))
        #expect(page.text.contains("<td data-label=\"By\"><a href=\"/account/admin/person?id=1\">admin@example.com</a></td>"))
        #expect(page.text.contains("<a class=\"audit-csv\" href=\"/account/admin/audit/csv\">"))
        let failed = try #require(page.text.range(of: "sign_in_failed</code>"))
        let invited = try #require(page.text.range(of: "invite_created</code>"))
        #expect(failed.lowerBound < invited.lowerBound, "newest first")
    }

    @Test func eachFilterNarrowsTheRows() throws {
        let site = try AdminSite()
        try record(site, .signInFailed, email: "ANN@example.com", address: "198.51.100.9", "m-before-account")
        try record(site, .signIn, accountId: site.annId, email: "old@example.com", "m-old-address")
        try record(site, .signIn, accountId: site.annId, email: "ann@example.com", "m-ann")
        try record(site, .signInFailed, email: "nobody@example.com", address: "198.51.100.9", "m-nobody")
        try record(site, .signIn, accountId: site.adminId, email: "admin@example.com", "m-admin")
        #expect(markers(site, "event=sign_in_failed") == ["m-nobody", "m-before-account"])
        #expect(markers(site, "person=Ann%40Example.com") == ["m-ann", "m-old-address", "m-before-account"],
                "the address without case, or the account holding it now")
        #expect(markers(site, "person=2") == ["m-ann", "m-old-address"], "an account number: its rows")
        #expect(markers(site, "person=nobody%40example.com") == ["m-nobody"], "an address no account holds")
        #expect(markers(site, "address=198.51.100.9") == ["m-nobody", "m-before-account"])
        #expect(markers(site, "address=%3A%3Affff%3A198.51.100.9") == ["m-nobody", "m-before-account"], "compared in canonical form")
        #expect(markers(site, "event=sign_in&person=ann%40example.com") == ["m-ann", "m-old-address"])
        let page = site.admin.get(site.uri("audit?event=sign_in&person=ann%40example.com"))
        #expect(page.text.contains("<option value=\"sign_in\" lang=\"en\" selected>sign_in</option>"), "the filters kept")
        #expect(page.text.contains("value=\"ann@example.com\""))
        #expect(page.text.contains("href=\"/account/admin/audit/csv?event=sign_in&amp;person=ann%40example.com\""))
    }

    /// Inserts a row of `sign_in` at `at` (the clock stays, so the admin's session lives on).
    func insert(_ site: AdminSite, at: Date, _ detail: String) throws {
        try site.test.services.database.write { tx in
            _ = try tx.execute("""
                INSERT INTO audit (createdAt, event, accountId, email, remoteAddress, addressGroup, userAgent, detail)
                VALUES (?, 'sign_in', NULL, NULL, '192.0.2.1', '192.0.2.1', 'x', ?)
                """, [at.timeIntervalSince1970, detail])
        }
    }

    @Test func datesAreWholeUTCDaysWithUntilIncluded() throws {
        let site = try AdminSite()
        let jan15 = Date(timeIntervalSince1970: 1_800_000_000 - 8 * 3600)   // 2027-01-15 00:00 UTC
        try insert(site, at: jan15.addingTimeInterval(-1), "m-jan14-late")
        try insert(site, at: jan15, "m-jan15")
        try insert(site, at: jan15.addingTimeInterval(day - 1), "m-jan15-late")
        try insert(site, at: jan15.addingTimeInterval(day), "m-jan16")
        try insert(site, at: jan15.addingTimeInterval(2 * day), "m-jan17")
        #expect(markers(site, "event=sign_in&since=2027-01-16") == ["m-jan17", "m-jan16"])
        #expect(markers(site, "event=sign_in&until=2027-01-15") == ["m-jan15-late", "m-jan15", "m-jan14-late"])
        #expect(markers(site, "event=sign_in&since=2027-01-15&until=2027-01-15") == ["m-jan15-late", "m-jan15"])
        #expect(markers(site, "since=2027-01-16&until=2027-01-16") == ["m-jan16"])
    }

    @Test func aBadFilterIsShownBesideItsFieldNever500() throws {
        let site = try AdminSite()
        let badDate = site.admin.get(site.uri("audit?since=2027-02-30&until=yesterday"))
        #expect(badDate.status == 422)
        #expect(badDate.text.contains("<p class=\"field-error\" id=\"since-error\">From (date) is not a date of the form YYYY-MM-DD</p>"))
        #expect(badDate.text.contains("<p class=\"field-error\" id=\"until-error\">Until (date, included) is not a date of the form YYYY-MM-DD</p>"))
        #expect(badDate.text.contains("value=\"yesterday\""), "kept to be corrected")
        let badEvent = site.admin.get(site.uri("audit?event=coffee"))
        #expect(badEvent.status == 422)
        #expect(badEvent.text.contains("Event is not a known event"))
        let backwards = site.admin.get(site.uri("audit?since=2027-01-16&until=2027-01-15"))
        #expect(backwards.status == 422)
        #expect(backwards.text.contains("is before the start date"))
        #expect(site.admin.get(site.uri("audit/csv?since=2027-13-01")).status == 400)
        #expect(site.admin.get(site.uri("audit/csv?event=coffee")).status == 400)
    }

    @Test func rowsCome100APageWithTheFiltersInThePager() throws {
        let site = try AdminSite()
        for n in 0..<150 { try record(site, .passkeyRenamed, String(format: "m-%03d", n)) }
        let first = site.admin.get(site.uri("audit?event=passkey_renamed"))
        let firstMarkers = markers(site, "event=passkey_renamed")
        #expect(firstMarkers.count == 100)
        #expect(firstMarkers.first == "m-149")
        #expect(first.text.contains("href=\"/account/admin/audit?event=passkey_renamed&amp;page=2\" rel=\"next\""))
        #expect(!first.text.contains("rel=\"prev\""))
        let second = site.admin.get(site.uri("audit?event=passkey_renamed&page=2"))
        let secondMarkers = markers(site, "event=passkey_renamed&page=2")
        #expect(secondMarkers.count == 50)
        #expect(secondMarkers.last == "m-000")
        #expect(second.text.contains("href=\"/account/admin/audit?event=passkey_renamed&amp;page=1\" rel=\"prev\""))
        #expect(!second.text.contains("rel=\"next\""))
        #expect(markers(site, "event=passkey_renamed&page=3").isEmpty)
    }

    @Test func theDownloadIsQuotedDefusedAndFiltered() throws {
        let site = try AdminSite()
        try record(site, .signInFailed, email: "=cmd@example.com", address: "198.51.100.9", userAgent: "Evil, \"quoted\"", "line one\nline two")
        try record(site, .signInFailed, accountId: site.annId, email: "ann@example.com", userAgent: "-2+3", "@SUM(A1)")
        let response = site.admin.get(site.uri("audit/csv?event=sign_in_failed"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(response.header("Content-Disposition") == "attachment; filename=\"audit-20270115-080000.csv\"")
        let lines = response.text.components(separatedBy: "\r\n")
        #expect(lines.first == "time,event,account_id,email,client_address,user_agent,detail,actor_id")
        #expect(lines.count == 4, "the header, two rows, the last CRLF: \(lines)")
        #expect(lines[1] == "2027-01-15T08:00:00Z,sign_in_failed,2,ann@example.com,192.0.2.1,'-2+3,'@SUM(A1),")
        #expect(lines[2] == "2027-01-15T08:00:00Z,sign_in_failed,,'=cmd@example.com,198.51.100.9,\"Evil, \"\"quoted\"\"\",\"line one\nline two\",")
        let all = site.admin.get(site.uri("audit/csv")).text.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        #expect(all.count > 2, "without a filter: every row (the sign-ups and groups too)")
        let byPerson = site.admin.get(site.uri("audit/csv?person=ann%40example.com&event=sign_in_failed")).text
        #expect(byPerson.components(separatedBy: "\r\n").count == 3)
    }

    @Test func theDownloadReadsEveryRowPastOnePage() throws {
        let site = try AdminSite()
        try site.test.services.database.write { tx in
            for n in 0..<2500 {
                _ = try tx.execute("""
                    INSERT INTO audit (createdAt, event, accountId, email, remoteAddress, addressGroup, userAgent, detail)
                    VALUES (?, 'passkey_renamed', NULL, NULL, '192.0.2.1', '192.0.2.1', 'x', ?)
                    """, [site.test.clock.now().timeIntervalSince1970, "n\(n)"])
            }
        }
        let lines = site.admin.get(site.uri("audit/csv?event=passkey_renamed")).text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 2501)
        #expect(lines[1].hasSuffix(",n2499,"))
        #expect(lines.last?.hasSuffix(",n0,") == true)
        #expect(Set(lines).count == 2501, "no row twice at a page's edge")
    }
}
