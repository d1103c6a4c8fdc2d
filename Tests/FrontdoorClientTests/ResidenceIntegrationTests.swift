// ResidenceIntegrationTests.swift: email residences against a real frontdoor behind nginx: register, wait, approve
// from the mailed link, collect, sign in with the token; and the server's refusals.
import Foundation
import FrontdoorClient
import Testing

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct ResidenceIntegrationTests {
    @Test func aNewAddressIsAllowedThenSignsIn() async throws {
        let stack = try await TestServer.shared.stack()
        let store = MemoryCredentialsStore()
        let client = Integration.client(stack, store: store)
        let email = Integration.email("device")
        try await client.registerResidence(email: email)
        #expect(try client.isEmailRegistered(email))
        #expect(try await client.verifyResidence(email: email) == false)
        #expect(try !client.isEmailVerified(email))

        try await Integration.approveResidence(stack, email: email)
        #expect(try await client.verifyResidence(email: email))
        #expect(try client.isEmailVerified(email))
        let token = try #require(try client.residenceToken(for: email))
        #expect(token.count == 43)
        #expect(try client.allEmails() == [email])

        let user = try await client.useResidence(email: email)
        #expect(user.email == email)
        #expect(user.id != nil)
        #expect(client.currentUser?.id == user.id)
        let named = try await client.update(fields: ["displayName": "Device owner"])
        #expect(named.id == user.id)

        try client.removeAllResidences()
        #expect(try client.allEmails() == [])
        #expect(client.isSignedIn)
    }

    @Test func anExistingAccountGetsATokenForItself() async throws {
        let stack = try await TestServer.shared.stack()
        let email = Integration.email("holder")
        let owner = Integration.client(stack)
        guard case .signedIn(let account) = try await owner.register(email: email, password: Integration.password) else {
            Issue.record("expected a signed-in registration"); return
        }
        let device = Integration.client(stack)
        try await device.registerResidence(email: email.uppercased())
        try await Integration.approveResidence(stack, email: email)
        #expect(try await device.verifyResidence(email: email))
        let user = try await device.useResidence(email: email)
        #expect(user.id == account.id)
    }

    @Test func aCollectedResidenceCannotBeCollectedAgain() async throws {
        let stack = try await TestServer.shared.stack()
        let store = MemoryCredentialsStore()
        let client = Integration.client(stack, store: store)
        let email = Integration.email("twice")
        try await client.registerResidence(email: email)
        let pending = try #require(try store.credentials(forKey: "residence:" + email))
        try await Integration.approveResidence(stack, email: email)
        #expect(try await client.verifyResidence(email: email))

        // Replaying the pending request (the same id and secret) finds nothing: the id is used up.
        try store.set(pending, forKey: "residence:" + email)
        await #expect(throws: FrontdoorClientError.notFound(message: "There is no such request, or it has expired.")) {
            try await client.verifyResidence(email: email)
        }
        #expect(try !client.isEmailRegistered(email))

        // So does a wrong secret, for a residence still pending.
        let other = Integration.email("secret")
        try await client.registerResidence(email: other)
        var forged = try #require(try store.credentials(forKey: "residence:" + other))
        forged.secret = "not-the-secret"
        try store.set(forged, forKey: "residence:" + other)
        await #expect(throws: FrontdoorClientError.notFound(message: "There is no such request, or it has expired.")) {
            try await client.verifyResidence(email: other)
        }
    }

    @Test func asecondRequestWithinTheThrottleIsRefused() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let email = Integration.email("throttle")
        try await client.registerResidence(email: email)
        await #expect { try await client.registerResidence(email: email) } throws: { error in
            guard case FrontdoorClientError.throttled(let message) = error else { return false }
            return !message.isEmpty
        }
        #expect(try client.isEmailRegistered(email))
        await #expect { try await client.registerResidence(email: "not an address") } throws: { error in
            guard case FrontdoorClientError.invalid = error else { return false }
            return true
        }
    }
}
