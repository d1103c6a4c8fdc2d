// ServerModeIntegrationTests.swift: the client against servers configured otherwise: confirmation required (register
// answers confirmationSent alike for a new and a taken address) and sign-up closed (403 for register and for a
// residence of an unknown address).
import Foundation
import FrontdoorClient
import Testing

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct ServerModeIntegrationTests {
    @Test func withConfirmationRequiredRegistrationWaitsForTheMailedLink() async throws {
        let stack = try await TestServer.confirming.stack()
        let client = Integration.client(stack)
        let email = Integration.email("confirm")
        #expect(try await client.register(email: email, password: Integration.password) == .confirmationSent)
        #expect(client.credentials == nil)
        // A taken address gets the same answer: nothing tells which addresses have accounts.
        #expect(try await client.register(email: email, password: Integration.password) == .confirmationSent)
        await #expect { try await client.signIn(email: email, password: Integration.password) } throws: { error in
            guard case FrontdoorClientError.unauthorized(let message) = error else { return false }
            return message != "Invalid email or password."   // the unconfirmed message
        }
        let link = try await Outbox(folder: stack.outbox).link(to: email, containing: "/confirm?token=")
        #expect(try await Browser().get(link).status < 400)
        let user = try await client.signIn(email: email, password: Integration.password)
        #expect(user.email == email)
        #expect(client.isSignedIn)
    }

    @Test func withSignUpClosedRegisterAndUnknownResidencesAreForbidden() async throws {
        let stack = try await TestServer.closed.stack()
        let client = Integration.client(stack)
        await #expect { try await client.register(email: Integration.email("closed"), password: Integration.password) } throws: { error in
            guard case FrontdoorClientError.forbidden(let message) = error else { return false }
            return message == "New accounts cannot be created here."
        }
        let email = Integration.email("stranger")
        try await client.registerResidence(email: email)
        #expect(try await client.verifyResidence(email: email) == false)
        // The link's page still shows; pressing "Allow this device" is refused, and so is the collection.
        let link = try await Outbox(folder: stack.outbox).link(to: email, containing: "/residences/confirm?token=")
        let browser = Browser()
        let page = try await browser.get(link)
        let csrf = try #require(Browser.field("csrf_token", in: page.text))
        let token = try #require(Browser.field("token", in: page.text))
        let refused = try await browser.post(stack.base.appendingPathComponent("residences/confirm"), ["csrf_token": csrf, "token": token])
        #expect(refused.status == 403)
        await #expect(throws: FrontdoorClientError.forbidden(message: "This address cannot be used to sign in here.")) {
            try await client.verifyResidence(email: email)
        }
        #expect(try !client.isEmailRegistered(email))
    }
}
