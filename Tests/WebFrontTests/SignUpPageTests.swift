// SignUpPageTests.swift: the sign-up page in invite and closed mode (open mode: FrontdoorTests).
import AccountCore
import Testing
@testable import WebFront

struct SignUpPageTests {
    let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

    func form(_ email: String, invite: String?, password: String = "correct horse") -> [String: String] {
        var form = ["email": email, "password": password, "password_confirmation": password]
        form["invite"] = invite
        return form
    }

    /// Posts the sign-up form with a CSRF token from the sign-in page (the sign-up page may be a 403 without a form).
    func post(_ browser: TestBrowser, _ form: [String: String]) -> Response {
        var form = form
        form["csrf_token"] = browser.csrfToken(for: "/account/sign_in")
        return browser.post("/account/sign_up", form)
    }

    func accounts(_ test: TestApp) throws -> Int {
        try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } ?? 0
    }

    @Test func withoutAnInvitationThePageSaysInvitationOnlyAndAPostCreatesNothing() throws {
        let test = try makeApp { $0.signUp = .invite }
        let browser = TestBrowser(test.app)
        let page = browser.get("/account/sign_up")
        #expect(page.status == 403)
        #expect(page.text.contains("Sign-up is by invitation only"))
        #expect(!page.text.contains(#"name="password""#))
        let bad = browser.get("/account/sign_up?invite=not-a-real-token")
        #expect(bad.status == 403 && bad.text.contains("This invitation does not work"))
        let refused = post(browser, form("ann@example.com", invite: nil))
        #expect(refused.status == 403 && refused.text.contains("Sign-up is by invitation only"))
        let forged = post(browser, form("ann@example.com", invite: "not-a-real-token"))
        #expect(forged.status == 403 && forged.text.contains("This invitation does not work"))
        #expect(try accounts(test) == 0)
    }

    @Test func theInvitationLinkShowsTheAddressReadOnlyAndSignsTheInviteeIn() throws {
        let test = try makeApp { $0.signUp = .invite }
        let issued = try test.services.invitations.create(email: "Ann@Example.com", client: cli)
        let browser = TestBrowser(test.app)
        let page = browser.get("/account/sign_up?invite=" + issued.token)
        #expect(page.status == 200)
        #expect(page.text.contains(#"value="Ann@Example.com" readonly"#))
        #expect(page.text.contains(#"<input type="hidden" name="invite" value="\#(issued.token)">"#))
        #expect(page.text.contains("You were invited with this address."))
        let token = try #require(page.text.firstMatch(of: /name="csrf_token" value="([^"]+)"/)).1
        var submitted = form("Ann@Example.com", invite: issued.token)
        submitted["csrf_token"] = String(token)
        let done = browser.post("/account/sign_up", submitted)
        #expect(done.status == 303 && done.header("Location") == "/account/")
        #expect(browser.get("/account/").text.contains("Signed in as Ann@Example.com"))
        // The link works once.
        let again = TestBrowser(test.app).get("/account/sign_up?invite=" + issued.token)
        #expect(again.status == 403 && again.text.contains("This invitation does not work"))
        #expect(try accounts(test) == 1)
    }

    @Test func formErrorsKeepTheInvitationAndAnotherAddressIsRefused() throws {
        let test = try makeApp { $0.signUp = .invite }
        let issued = try test.services.invitations.create(email: "ann@example.com", client: cli)
        let browser = TestBrowser(test.app)
        _ = browser.get("/account/sign_up?invite=" + issued.token)
        let short = post(browser, form("ann@example.com", invite: issued.token, password: "abc"))
        #expect(short.status == 200)
        #expect(short.text.contains("Password is too short"))
        #expect(short.text.contains(#"name="invite" value="\#(issued.token)""#))
        #expect(short.text.contains(#"value="ann@example.com" readonly"#))
        let other = post(browser, form("bob@example.com", invite: issued.token))
        #expect(other.status == 200)
        #expect(other.text.contains("Email is not the address this invitation is for"))
        #expect(other.text.contains(#"name="invite" value="\#(issued.token)""#))
        #expect(try accounts(test) == 0)
        #expect(post(browser, form("ann@example.com", invite: issued.token)).status == 303, "the invitation was kept")
    }

    @Test func closedModeRefusesTheFormAndHidesTheSignUpLink() throws {
        let test = try makeApp { $0.signUp = .closed }
        let browser = TestBrowser(test.app)
        let page = browser.get("/account/sign_up")
        #expect(page.status == 403 && page.text.contains("Sign-up is closed"))
        let refused = post(browser, form("ann@example.com", invite: nil))
        #expect(refused.status == 403 && refused.text.contains("Sign-up is closed"))
        #expect(try accounts(test) == 0)
        #expect(!browser.get("/account/sign_in").text.contains(#"href="/account/sign_up""#))
        let open = try makeApp()
        #expect(TestBrowser(open.app).get("/account/sign_in").text.contains(#"href="/account/sign_up""#))
        #expect(TestBrowser(open.app).get("/account/sign_up?invite=bogus").status == 200, "open mode ignores a bad invitation")
    }
}
