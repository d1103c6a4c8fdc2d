// OpenIDIntegrationTests.swift: signInThroughProvider against the real stack: a public client with api_sign_in added by
// `frontdoor client add`, a "system browser" that already holds a Frontdoor session (signed in on the page) and follows
// the authorization redirects until the custom-scheme callback, the code redeemed at oidc/token, and the API token.
import Foundation
@testable import FrontdoorClient
import Testing

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct OpenIDIntegrationTests {
    static let redirectURI = "com.example.notes:/oidc-callback"

    /// A browser session double: the cookie-keeping Browser, signed in already, following the server's redirects (as a
    /// browser would) and returning the first one to the app's scheme.
    struct SignedInBrowser: WebAuthenticationSession {
        let browser: Browser
        func authenticate(url: URL, callbackURLScheme: String?) async throws -> URL {
            var next = url
            for _ in 0..<10 {
                let page = try await browser.get(next)
                guard let location = page.location else { throw HarnessError("no redirect from \(next): \(page.status)") }
                guard let target = URL(string: location, relativeTo: next)?.absoluteURL else { throw HarnessError("bad Location \(location)") }
                if target.scheme == callbackURLScheme { return target }
                next = target
            }
            throw HarnessError("too many redirects")
        }
    }

    /// `frontdoor ARGS` on the stack's config, run in its folder (where the server runs: its relative key files); its
    /// stdout and stderr.
    static func frontdoor(_ stack: Stack, _ arguments: [String]) async throws -> String {
        let log = stack.folder + "/cli-\(UUID().uuidString.prefix(8)).log"
        _ = try await TestServer.finish(TestServer.binary, arguments + ["--config", stack.folder + "/frontdoor.yml"], folder: stack.folder, log: log)
        return try String(contentsOfFile: log, encoding: .utf8)
    }

    @Test func anAppSignsInThroughTheBrowserAndGetsAnAPIToken() async throws {
        let stack = try await TestServer.shared.stack()
        let id = "notes-\(UUID().uuidString.prefix(6).lowercased())"
        #expect(try await Self.frontdoor(stack, ["client", "add", id, "--public", "--api-sign-in", "--first-party", "--redirect-uri", Self.redirectURI])
            .contains("created public client \(id)"))
        // The person has an account and is signed in in the browser.
        let email = Integration.email("oidc")
        _ = try await Integration.client(stack).register(email: email, password: Integration.password)
        let browser = Browser()
        let signInPage = stack.base.appendingPathComponent("sign_in")
        let form = try await browser.get(signInPage)
        let csrf = try #require(Browser.field("csrf_token", in: form.text))
        #expect(try await browser.post(signInPage, ["csrf_token": csrf, "email": email, "password": Integration.password]).status == 303)

        let client = Integration.client(stack)
        let user = try await client.signInThroughProvider(ProviderSignIn(clientID: id, redirectURI: Self.redirectURI),
                                                          session: SignedInBrowser(browser: browser))
        #expect(user.email == email && client.currentUser?.email == email)
        // The API token works: the profile call authenticates with it.
        try await client.update(fields: ["displayName": "Via OIDC"])
    }

    @Test func aClientWithoutAPISignInIsRefusedAtTheExchange() async throws {
        let stack = try await TestServer.shared.stack()
        let id = "web-\(UUID().uuidString.prefix(6).lowercased())"
        _ = try await Self.frontdoor(stack, ["client", "add", id, "--public", "--first-party", "--redirect-uri", Self.redirectURI])
        let email = Integration.email("oidc-no-api")
        _ = try await Integration.client(stack).register(email: email, password: Integration.password)
        let browser = Browser()
        let signInPage = stack.base.appendingPathComponent("sign_in")
        let csrf = try #require(Browser.field("csrf_token", in: try await browser.get(signInPage).text))
        _ = try await browser.post(signInPage, ["csrf_token": csrf, "email": email, "password": Integration.password])
        let client = Integration.client(stack)
        await #expect { try await client.signInThroughProvider(ProviderSignIn(clientID: id, redirectURI: Self.redirectURI),
                                                                session: SignedInBrowser(browser: browser)) } throws: { error in
            if case FrontdoorClientError.unauthorized = error { return true } else { return false }
        }
        #expect(!client.isSignedIn)
    }
}
