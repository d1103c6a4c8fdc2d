// OpenIDFormActionsTests.swift: with the provider on, every page's form-action names the clients' redirect and
// post-logout origins (browsers check form-action on the redirects after a form: sign-in or consent → authorize → the
// app), a native app's private-use scheme as a scheme and its loopback redirect on any port, and a client added to the database within the refresh interval.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct OpenIDFormActionsTests {
    func formAction(_ response: Response) throws -> String {
        let policy = try #require(response.header("Content-Security-Policy"))
        return try #require(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("form-action") })
    }

    @Test func theConfiguredClientsOriginsAndSchemesAreFormActions() throws {
        let clients = [OpenIDClient(id: "wiki", redirectURIs: ["https://wiki.example.com:8443/cb?x=1"], postLogoutRedirectURIs: ["https://bye.example.com/"]),
                       OpenIDClient(id: "app", isPublic: true, redirectURIs: ["com.example.App:/callback"]),
                       OpenIDClient(id: "cli", isPublic: true, redirectURIs: ["http://127.0.0.1/callback", "http://[::1]/cb"])]
        let test = try makeOpenIDApp(clients: clients)
        let action = try formAction(TestBrowser(test.app).get("/account/sign_in"))
        #expect(action == "form-action 'self' com.example.app: http://127.0.0.1:* http://[::1]:* https://bye.example.com https://wiki.example.com:8443")
    }

    @Test func aClientAddedToTheDatabaseIsAFormActionWithinTheRefresh() throws {
        let test = try makeOpenIDApp(clients: [])
        let browser = TestBrowser(test.app)
        #expect(try formAction(browser.get("/account/sign_in")) == "form-action 'self'")
        try test.services.openIDClients.add(OpenIDClient(id: "notes", redirectURIs: ["https://notes.example/cb"], source: .database))
        #expect(try formAction(browser.get("/account/sign_in")) == "form-action 'self'")   // read again only after the interval
        test.clock.advance(by: OpenIDFormActions.refresh)
        #expect(try formAction(browser.get("/account/sign_in")) == "form-action 'self' https://notes.example")
    }

    @Test func theProviderOffLeavesTheSitesOwnPolicy() throws {
        let test = try makeApp { $0.openID.enabled = false }
        #expect(try formAction(TestBrowser(test.app).get("/account/sign_in")) == "form-action 'self'")
    }
}
