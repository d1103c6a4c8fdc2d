// AccountIntegrationTests.swift: every account call against a real frontdoor behind nginx (see TestServer).
import Foundation
import FrontdoorClient
import Testing

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct AccountIntegrationTests {
    @Test func registerUpdateChangePasswordSignOutAndIn() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let email = Integration.email("life")
        guard case .signedIn(let user) = try await client.register(email: email, password: Integration.password,
                                                                   fields: ["displayName": "Ann"]) else {
            Issue.record("expected a signed-in registration (confirmation is off)"); return
        }
        #expect(user.email == email)
        #expect(user.authenticationToken?.count == 43)
        #expect(user.createdAt != nil)
        #expect(client.currentUser?.id == user.id)

        let updated = try await client.update(fields: ["displayName": "Ann Other"])
        #expect(updated.id == user.id)
        #expect(updated.authenticationToken == user.authenticationToken)

        // A second device of the same account loses its token when the password changes elsewhere.
        let other = Integration.client(stack)
        try await other.signIn(email: email, password: Integration.password)
        // Signed in moments ago: no current password needed.
        let changed = try await client.changePassword(to: "another long password")
        #expect(changed.authenticationToken == user.authenticationToken)
        await #expect(throws: FrontdoorClientError.unauthorized(message: "You need to sign in or sign up before continuing.")) {
            try await other.reload()
        }
        let token = try Integration.credentials(of: client)
        try await client.signOut()
        #expect(client.credentials == nil)
        try client.store.setDefaultCredentials(token)
        await #expect(throws: FrontdoorClientError.unauthorized(message: "You need to sign in or sign up before continuing.")) {
            try await client.reload()
        }

        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid email or password.")) {
            try await client.signIn(email: email, password: Integration.password)
        }
        let again = try await client.signIn(email: email.uppercased(), password: "another long password")
        #expect(again.id == user.id)
        #expect(again.authenticationToken != user.authenticationToken)
    }

    @Test func theServersOwnRulesComeBackAsValidation() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let email = Integration.email("taken")
        try await client.register(email: email, password: Integration.password)
        await #expect { try await Integration.client(stack).register(email: email, password: Integration.password) } throws: { error in
            guard case FrontdoorClientError.validation(let message, let fields) = error else { return false }
            return message.hasPrefix("Validation failed: ") && fields["email"]?.isEmpty == false
        }
        await #expect { try await client.deleteAccount(currentPassword: "not the password") } throws: { error in
            guard case FrontdoorClientError.validation = error else { return false }
            return true
        }
        await #expect { try await client.changePassword(to: "a fine new password", currentPassword: "wrong password") } throws: { error in
            guard case FrontdoorClientError.validation = error else { return false }
            return true
        }
        #expect(client.isSignedIn)
    }

    @Test func deleteAccountEndsIt() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let email = Integration.email("gone")
        try await client.register(email: email, password: Integration.password)
        let token = client.credentials?.secret
        let deleted = try await client.deleteAccount(currentPassword: Integration.password)
        #expect(deleted.email == email)
        #expect(deleted.authenticationToken == token)
        #expect(client.credentials == nil)
        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid email or password.")) {
            try await client.signIn(email: email, password: Integration.password)
        }
    }

    @Test func aRecentSignInDeletesWithoutThePassword() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let email = Integration.email("recent")
        try await client.register(email: email, password: Integration.password)
        try await client.deleteAccount()
        #expect(!client.isSignedIn)
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(email: email, password: Integration.password) }
    }

    @Test func remindAndResetByTheMailedLink() async throws {
        let stack = try await TestServer.shared.stack()
        let first = Integration.client(stack)
        let email = Integration.email("reset")
        try await first.register(email: email, password: Integration.password)
        try await Integration.confirmAddress(stack, email: email)
        let device = Integration.client(stack)
        try await device.remindPassword(email: email)
        try await device.remindPassword(email: Integration.email("nobody"))   // same answer for an unknown address
        let link = try await Outbox(folder: stack.outbox).link(to: email, containing: "/password/edit?token=")
        let token = try #require(URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
        let user = try await device.resetPassword(token: token, password: "reset to this one")
        #expect(user.email == email)
        #expect(device.credentials?.secret == user.authenticationToken)
        // A reset ends every other session and token.
        await #expect(throws: FrontdoorClientError.self) { try await first.reload() }
        await #expect { try await device.resetPassword(token: token, password: "and again please") } throws: { error in
            guard case FrontdoorClientError.validation = error else { return false }
            return true
        }
        try await device.signOut()
        try await device.signIn(email: email, password: "reset to this one")
    }

    @Test func aNewAddressBecomesPrimaryOnceConfirmed() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let email = Integration.email("old")
        let newEmail = Integration.email("new")
        try await client.register(email: email, password: Integration.password)
        // Verified, the old address keeps authenticating after the switch (an unverified one would not: see docs/native-apps.md).
        try await Integration.confirmAddress(stack, email: email)
        let pending = try await client.update(email: newEmail)
        #expect(pending.email == email)
        #expect(pending.unconfirmedEmail == newEmail)
        let link = try await Outbox(folder: stack.outbox).link(to: newEmail, containing: "/confirm?token=")
        let confirmed = try await Browser().get(link)
        #expect((200..<400).contains(confirmed.status))
        let user = try await client.reload()
        #expect(user.email == newEmail)
        #expect(user.unconfirmedEmail == nil)
        #expect(client.credentials?.username == newEmail)
        #expect(try await client.reload().email == newEmail)
    }

    @Test func signInFailuresAndMissingCredentials() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid email or password.")) {
            try await client.signIn(email: Integration.email("unknown"), password: Integration.password)
        }
        try client.store.setDefaultCredentials(Credentials(username: "x@example.com", secret: "forged", url: stack.base))
        await #expect(throws: FrontdoorClientError.unauthorized(message: "You need to sign in or sign up before continuing.")) {
            try await client.update(fields: ["displayName": "X"])
        }
    }
}
