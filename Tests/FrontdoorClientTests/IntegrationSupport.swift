// IntegrationSupport.swift: what the integration suites share: a client on the running stack, unique addresses,
// and what the person does in a browser: confirming an address, approving a residence from its mail.
import Foundation
import FrontdoorClient
import Testing

enum Integration {
    static let password = "correct horse battery"

    /// A client of the shared stack with its own memory store.
    static func client(_ stack: Stack, store: any CredentialsStore = MemoryCredentialsStore()) -> FrontdoorClient {
        FrontdoorClient(configuration: .init(serverURL: stack.base, timeout: 10, retryBackoff: 0.05), store: store)
    }

    /// An address no other test uses.
    static func email(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    /// Opens the residence link mailed to `email`, checks the page names the address, and presses "Allow this device".
    static func approveResidence(_ stack: Stack, email: String) async throws {
        let link = try await Outbox(folder: stack.outbox).link(to: email, containing: "/residences/confirm?token=")
        let browser = Browser()
        let page = try await browser.get(link)
        #expect(page.status == 200)
        #expect(page.text.contains(email))
        #expect(page.text.contains("id=\"allow\""))
        let csrf = try #require(Browser.field("csrf_token", in: page.text))
        let token = try #require(Browser.field("token", in: page.text))
        let approved = try await browser.post(stack.base.appendingPathComponent("residences/confirm"), ["csrf_token": csrf, "token": token])
        #expect(approved.status == 200)
        #expect(approved.text.contains("Device allowed"))
    }

    /// Verifies `email` as its owner would: "resend the confirmation" on the page, then the mailed link. (With
    /// confirmation off, sign-up leaves the address unverified, and a password reset goes only to verified ones.)
    static func confirmAddress(_ stack: Stack, email: String) async throws {
        let browser = Browser()
        let url = stack.base.appendingPathComponent("confirmation/new")
        let form = try await browser.get(url)
        let csrf = try #require(Browser.field("csrf_token", in: form.text))
        let sent = try await browser.post(url, ["csrf_token": csrf, "email": email])
        #expect(sent.status < 400)
        let link = try await Outbox(folder: stack.outbox).link(to: email, containing: "/confirm?token=")
        let confirmed = try await browser.get(link)
        #expect(confirmed.status < 400)
    }

    /// The token a client holds now (to replay it after the client forgot it).
    static func credentials(of client: FrontdoorClient) throws -> Credentials { try #require(client.credentials) }
}
