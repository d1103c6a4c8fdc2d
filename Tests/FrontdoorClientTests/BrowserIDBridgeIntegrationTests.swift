// BrowserIDBridgeIntegrationTests.swift: the native bridge against a real frontdoor behind nginx (see TestServer; its
// `bridge` stack lists the app's origin in browserid.allowed_origins, without which the bridge is off):
// the Browser plays the app's web view on the page the bridge names, and the assertion from the callback is checked
// by the server's /verify through the bridge, as the app's own server does when it runs FrontdoorClient.
import Foundation
import FrontdoorClient
import Testing

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct BrowserIDBridgeIntegrationTests {
    /// The callback the done page goes to, from its data-callback attribute.
    func callback(in html: String) throws -> URL {
        let match = try #require(html.firstMatch(of: /data-callback="(browserid-origin:[^"]+)"/))
        return try #require(URL(string: String(match.1).replacingOccurrences(of: "&amp;", with: "&")))
    }

    @Test func signInConfirmAndTheVerifierVouchesForTheAddressAtThatOrigin() async throws {
        let stack = try await TestServer.bridge.stack()
        let email = Integration.email("bridge")
        _ = try await Integration.client(stack).register(email: email, password: Integration.password)
        try await Integration.confirmAddress(stack, email: email)
        let bridge = BrowserIDBridge(serverURL: stack.base, verifierURL: stack.base.appendingPathComponent("verify"))
        let dialog = try bridge.dialogURL(origin: "http://my.app:3000/")

        // Given the page in a fresh web view: sign in first, coming back to it.
        let browser = Browser()
        let signIn = try await browser.get(dialog)
        #expect(signIn.status == 200)
        #expect(signIn.text.contains("<strong id=\"rp-origin\">http://my.app:3000</strong>"))
        let rd = try #require(Browser.field("rd", in: signIn.text))
        #expect(rd.hasSuffix("/browserid/native?origin=http%3A%2F%2Fmy.app%3A3000"))
        let signedIn = try await browser.post(stack.base.appendingPathComponent("sign_in"), [
            "csrf_token": try #require(Browser.field("csrf_token", in: signIn.text)), "email": email,
            "password": Integration.password, "rd": rd])
        #expect(signedIn.status == 303)

        // When the person confirms their address for the origin:
        let choose = try await browser.get(dialog)
        #expect(choose.text.contains("value=\"\(email)\" checked"))
        let done = try await browser.post(stack.base.appendingPathComponent("browserid/native"), [
            "csrf_token": try #require(Browser.field("csrf_token", in: choose.text)), "origin": "http://my.app:3000", "email": email])
        #expect(done.status == 200)

        // Then the callback carries an assertion the verifier accepts for that origin only.
        let url = try callback(in: done.text)
        #expect(BrowserIDBridge.isCallback(url))
        guard case .assertion(let assertion) = try BrowserIDBridge.callback(url) else { Issue.record("no assertion in \(url)"); return }
        let receipt = try await bridge.verify(assertion: assertion, audience: "http://my.app:3000")
        #expect(receipt.email == email && receipt.audience == "http://my.app:3000")
        #expect(receipt.issuer == stack.base.host.map { "\($0):\(stack.base.port ?? 80)" })
        #expect(receipt.expires > Date() && receipt.expires < Date().addingTimeInterval(180))
        await #expect(throws: BrowserIDBridgeError.self) { try await bridge.verify(assertion: assertion, audience: "http://my.app") }
        let elsewhere = try await bridge.verify(assertion: assertion, audience: "http://my.app:3000/")
        #expect(elsewhere.email == email, "the trailing slash names the same origin")
    }

    @Test func anOriginThatIsNotAWebsiteIsRefusedByThePage() async throws {
        let stack = try await TestServer.bridge.stack()
        var components = try #require(URLComponents(url: stack.base.appendingPathComponent("browserid/native"), resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "origin", value: "file:///etc/passwd")]
        let page = try await Browser().get(try #require(components.url))
        #expect(page.status == 400)
        #expect(page.text.contains("does not name a website"))
    }
}
