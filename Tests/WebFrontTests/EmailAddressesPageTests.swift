// EmailAddressesPageTests.swift: the settings/emails page in-process: list, add, confirm from a signed-in browser.
import AccountCore
import Testing
@testable import WebFront

struct EmailAddressesPageTests {
    /// A browser signed in to a new account (confirmation off).
    func signedIn(_ test: TestApp, _ email: String = "ann@example.com") -> TestBrowser {
        let browser = TestBrowser(test.app)
        let signUp = browser.post("/account/sign_up", ["email": email, "password": "correct horse", "password_confirmation": "correct horse"])
        #expect(signUp.status == 303)
        return browser
    }

    func addresses(_ test: TestApp) throws -> [String] {
        try test.services.database.read { tx in try tx.values(String.self, "SELECT address FROM emailAddress ORDER BY id") }
    }

    @Test func anAddedAddressIsListedAndItsLinkLeadsBackToTheList() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = signedIn(test)
        let page = browser.get("/account/settings/emails")
        #expect(page.status == 200)
        #expect(page.text.contains("ann@example.com"))
        #expect(page.text.contains(#"aria-current="page">Email addresses"#))

        let added = browser.post("/account/settings/emails", ["email": "Ann@Work.example"])
        #expect(added.status == 303)
        #expect(added.header("Location") == "/account/settings/emails")
        let list = browser.get("/account/settings/emails").text
        #expect(list.contains("Address added."))
        #expect(list.contains(#"<tr class="address address-unverified""#))

        let link = try #require(try test.link(containing: "/account/confirm?token="))
        let confirmed = browser.get(String(link.dropFirst("http://127.0.0.1:8080".count)))
        #expect(confirmed.status == 302)
        #expect(confirmed.header("Location") == "/account/settings/emails")
        let after = browser.get("/account/settings/emails").text
        #expect(after.contains("The address is confirmed."))
        #expect(after.contains(#"<tr class="address address-verified""#))
    }

    @Test func aLinkFollowedWhileSignedInToAnotherAccountGoesToTheSignInPage() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let ann = signedIn(test)
        #expect(ann.post("/account/settings/emails", ["email": "ann@work.example"]).status == 303)
        let link = try #require(try test.link(containing: "/account/confirm?token="))
        let bob = signedIn(test, "bob@example.com")
        let confirmed = bob.get(String(link.dropFirst("http://127.0.0.1:8080".count)))
        #expect(confirmed.header("Location") == "/account/sign_in")
    }

    @Test func fieldErrorsReshowTheListAndTheTypedAddress() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = signedIn(test)
        _ = signedIn(test, "bob@example.com")
        let page = browser.post("/account/settings/emails", ["email": " BOB@example.com "])
        #expect(page.status == 200)
        #expect(page.text.contains("Email can&#39;t be added to your account"))
        #expect(page.text.contains(#"value="BOB@example.com""#))
        #expect(page.text.contains("ann@example.com"), "the list is shown too")
        #expect(try addresses(test) == ["ann@example.com", "bob@example.com"])
    }

    @Test func anIdThatIsNoNumberIsNotFound() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = signedIn(test)
        let response = browser.post("/account/settings/emails/remove", ["id": "first"])
        #expect(response.status == 303)
        #expect(browser.get("/account/settings/emails").text.contains("That address is not part of your account."))
    }
}
