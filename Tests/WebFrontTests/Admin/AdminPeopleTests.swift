// AdminPeopleTests.swift: the admin's people list (search, pages) and a person's page (its sections, 404s, languages).
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminPeopleTests {
    @Test func theListShowsEveryoneWithALinkToTheirPage() throws {
        let site = try AdminSite()
        let page = site.admin.get(site.uri("people"))
        #expect(page.status == 200)
        #expect(page.text.contains(#"<form method="get" action="/account/admin/people" class="admin-search""#))
        #expect(page.text.contains(#"<table class="admin-table admin-people">"#))
        #expect(page.text.contains(#"<a href="/account/admin/person?id=2">ann@example.com</a>"#))
        #expect(page.text.contains(#"<a href="/account/admin/person?id=1">admin@example.com</a>"#))
        #expect(page.text.contains("admins"), "the admin's group")
        #expect(page.text.contains("Unconfirmed"), "confirmation is not required here, so nobody confirmed")
        #expect(!page.text.contains("admin-pager"), "one page only")
        #expect(try #require(page.text.range(of: "id=1\">")).lowerBound < (try #require(page.text.range(of: "id=2\">"))).lowerBound,
                "oldest first")
    }

    @Test func theListSearchesAddressesUsernamesAndNamesWithoutCase() throws {
        let site = try AdminSite()
        _ = try site.test.services.database.write { tx in
            try tx.execute("UPDATE account SET displayName = ?, username = ? WHERE id = ?", ["Ann Quill", "annq", site.annId])
        }
        for query in ["ANN@example", "quill", "ANNQ"] {
            let page = site.admin.get(site.uri("people?q=" + FormData.encode(query))).text
            #expect(page.contains("person?id=2\""), "\(query)")
            #expect(!page.contains("person?id=1\""), "\(query)")
            #expect(page.contains("value=\"\(query)\""), "the search stays in its field")
        }
        let none = site.admin.get(site.uri("people?q=nobody")).text
        #expect(none.contains("No one matches.") && !none.contains("admin-table"))
    }

    @Test func theListHasFiftyAPageAndPagerLinksKeepingTheSearch() throws {
        let site = try AdminSite()
        for number in 1...55 {
            try site.test.services.administration.add(email: "p\(number)@example.com", password: "correct horse", confirmed: true,
                                                      client: adminTestCLI)
        }
        let first = site.admin.get(site.uri("people")).text
        #expect(first.matches(of: /person\?id=\d+"/).count == 50)
        #expect(first.contains(#"class="admin-pager""#))
        #expect(first.contains(#"href="/account/admin/people?page=2""#) && !first.contains("rel=\"prev\""))
        let second = site.admin.get(site.uri("people?page=2")).text
        #expect(second.matches(of: /person\?id=\d+"/).count == 7)
        #expect(second.contains(#"href="/account/admin/people?page=1" rel="prev""#) && !second.contains("rel=\"next\""))
        let searched = site.admin.get(site.uri("people?q=p&page=1")).text
        #expect(searched.contains(#"href="/account/admin/people?q=p&amp;page=2""#), "the search goes along")
        #expect(site.admin.get(site.uri("people?page=-3")).status == 200, "a bad page number is the first page")
        #expect(site.admin.get(site.uri("people?page=99999999999999999999")).status == 200)
    }

    @Test func aPersonsPageHasEverySection() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "staff", client: adminTestCLI)
        let page = site.admin.get(site.uri("person?id=2"))
        #expect(page.status == 200)
        let text = page.text
        #expect(text.contains("<h1 class=\"admin-person-title\">ann@example.com</h1>"))
        for section in ["addresses", "sessions", "providers", "second-factor", "groups", "actions", "audit"] {
            #expect(text.contains("<section id=\"\(section)\""), "\(section)")
        }
        let handle = try #require(try site.test.services.administration.liveSessions(accountId: site.annId).first?.handle)
        #expect(text.contains(#"name="handle" value="\#(handle)""#), "a revoke form per session")
        #expect(text.contains(#"action="/account/admin/person/sessions/revoke_all""#))
        #expect(text.contains(#"action="/account/admin/person/confirmation""#) && text.contains(#"name="email" value="ann@example.com""#),
                "the unverified address can be sent its confirmation again")
        #expect(text.contains(#"<select id="add-group" name="add"><option value="admins">admins</option><option value="staff">staff</option></select>"#))
        #expect(text.contains(#"<select id="lock-duration" name="duration"><option value="1h">"#))
        #expect(text.contains(#"name="reason""#) && text.contains(#"action="/account/admin/person/password_reset""#))
        #expect(text.contains(#"href="/account/admin/person/delete?id=2""#))
        #expect(text.contains("No linked providers.") && text.contains("One-time codes: off."))
        #expect(text.contains("<code lang=\"en\">sign_up</code>"), "the person's audit rows")
        #expect(text.contains(#"href="/account/admin/audit?person=2""#))
        #expect(text.contains(#"<time datetime=""#))
    }

    @Test func theAdminsOwnPageOffersNoLockAndNoDelete() throws {
        let site = try AdminSite()
        let text = site.admin.get(site.uri("person?id=1")).text
        #expect(text.contains("This is your own account"))
        #expect(!text.contains(#"action="/account/admin/person/lock""#))
        #expect(!text.contains("person/delete?id=1"))
        #expect(text.contains("Remove from admins"), "the groups are still shown")
    }

    @Test func anUnknownOrMalformedIdIs404() throws {
        let site = try AdminSite()
        for uri in ["person?id=99", "person?id=abc", "person", "person/delete?id=99"] {
            #expect(site.admin.get(site.uri(uri)).status == 404, "\(uri)")
        }
        for action in ["person/lock", "person/unlock", "person/sessions/revoke_all", "person/password_reset", "person/delete"] {
            #expect(site.admin.post(site.uri(action), ["id": "99", "duration": "1h"]).status == 404, "\(action)")
        }
    }

    @Test(arguments: ["fr", "de"])
    func thePagesSpeakTheRequestsLanguage(_ language: String) throws {
        let site = try AdminSite()
        try site.test.services.groups.change(accountId: site.annId, adding: ["admins"], removing: [], client: adminTestCLI)
        // The admin's own choice of language (sign-up kept the English it was answered in).
        try site.test.services.profile.setLanguage(language, of: site.adminId)
        let headers: [String: String] = [:]
        let expected = language == "fr" ? ["Personnes", "Fournisseurs liés", "Événements récents", "Déconnecter partout"]
                                        : ["Personen", "Verknüpfte Anbieter", "Letzte Ereignisse", "Überall abmelden"]
        let pages = [site.admin.get(site.uri("people"), headers: headers), site.admin.get(site.uri("person?id=2"), headers: headers),
                     site.admin.get(site.uri("person/delete?id=2"), headers: headers)]
        for page in pages { #expect(page.status == 200) }
        let person = pages[1].text
        for text in expected { #expect(person.contains(text) || pages[0].text.contains(text), "\(language): \(text)") }
        for page in pages {
            #expect(!page.text.contains("admin_pe"), "a catalog key shown as itself")
            for english in ["Linked providers", "Recent events", "Sign out everywhere", "Search by address", "Last sign-in",
                            "Delete for good", "Type the primary address", "Remove from", "Never"] {
                #expect(!page.text.contains(english), "\(language): \(english)")
            }
        }
    }
}
