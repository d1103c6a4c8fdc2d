// ClientRequestTests.swift: what each account call sends and keeps, against a scripted transport: paths, headers,
// bodies and extra parameters, the stored credentials, checks before sending, and retries.
import AccountRules
import Foundation
@testable import FrontdoorClient
import Testing

@Suite struct ClientRequestTests {
    @Test func signInSendsDeviseBodyAndStoresTheCredentials() async throws {
        let store = MemoryCredentialsStore()
        let (client, transport) = Fixture.client([.answer(201, Fixture.userJSON())], store: store) {
            $0.extraParameters = [.signIn: ["device": "phone", "email": "ignored@example.com"]]
        }
        let user = try await client.signIn(email: "ann@example.com", password: "pw")
        #expect(user.id == 12)
        let sent = try #require(transport.sent.first)
        #expect(sent.method == "POST")
        #expect(sent.path == "/account/v1/users/sign_in")
        #expect(sent.headers["Content-Type"] == "application/json")
        #expect(sent.headers["Accept"] == "application/json")
        #expect(sent.headers["X-User-Token"] == nil)
        #expect(sent.user == ["email": "ann@example.com", "password": "pw", "device": "phone"])
        #expect(try store.defaultCredentials() == Credentials(username: "ann@example.com", secret: "tok-1", url: Fixture.server, extra: ["id": "12"]))
        #expect(client.currentUser == User(id: 12, email: "ann@example.com", authenticationToken: "tok-1"))
        #expect(client.isSignedIn)
    }

    @Test func authenticatedCallsCarryTheHeaders() async throws {
        let (client, transport) = Fixture.client([
            .answer(201, Fixture.userJSON()),
            .answer(200, Fixture.userJSON(extra: #","unconfirmedEmail":"new@example.com""#)),
            .answer(200, Fixture.userJSON()),
            .answer(200, Fixture.userJSON()),
        ])
        try await client.signIn(email: "ann@example.com", password: "pw")
        let updated = try await client.update(email: "new@example.com", fields: ["displayName": "Ann"])
        #expect(updated.unconfirmedEmail == "new@example.com")
        try await client.changePassword(to: "a new password", currentPassword: "pw")
        _ = try await client.reload()
        let sent = transport.sent
        #expect(sent.map(\.method) == ["POST", "PUT", "PUT", "PUT"])
        #expect(sent.map(\.path) == ["/account/v1/users/sign_in", "/account/v1/users", "/account/v1/users/password", "/account/v1/users"])
        for request in sent.dropFirst() {
            #expect(request.headers["X-User-Email"] == "ann@example.com")
            #expect(request.headers["X-User-Token"] == "tok-1")
        }
        #expect(sent[1].user == ["email": "new@example.com", "displayName": "Ann"])
        #expect(sent[2].user == ["password": "a new password", "passwordConfirmation": "a new password", "currentPassword": "pw"])
        #expect(sent[3].user == [:])
    }

    @Test func theStoredAddressFollowsTheAccountsPrimary() async throws {
        let (client, _) = Fixture.client([
            .answer(201, Fixture.userJSON()), .answer(200, Fixture.userJSON(email: "new@example.com")),
            .answer(200, Fixture.userJSON(email: "other@example.com", token: "someone else's")),
        ])
        try await client.signIn(email: "ann@example.com", password: "pw")
        #expect(try await client.reload().email == "new@example.com")
        #expect(client.credentials == Credentials(username: "new@example.com", secret: "tok-1", url: Fixture.server, extra: ["id": "12"]))
        // An answer carrying another token says nothing about these credentials.
        _ = try await client.update(fields: ["displayName": "Ann"])
        #expect(client.credentials?.username == "new@example.com")
    }

    @Test func registerSignsInOrWaitsForTheConfirmation() async throws {
        let (client, transport) = Fixture.client([
            .answer(201, Fixture.userJSON(token: "tok-new")),
            .answer(201, Fixture.confirmationSent),
        ])
        let first = try await client.register(email: "ann@example.com", password: "long enough now", fields: ["displayName": "Ann"])
        #expect(first == .signedIn(User(id: 12, email: "ann@example.com", authenticationToken: "tok-new",
                                        createdAt: Fixture.createdAt, updatedAt: Fixture.updatedAt)))
        #expect(client.credentials?.secret == "tok-new")
        #expect(transport.sent[0].path == "/account/v1/users")
        #expect(transport.sent[0].user == ["email": "ann@example.com", "password": "long enough now",
                                           "passwordConfirmation": "long enough now", "displayName": "Ann"])
        try client.store.removeAll()
        #expect(try await client.register(email: "bob@example.com", password: "long enough now") == .confirmationSent)
        #expect(client.credentials == nil)
    }

    @Test func problemsFoundBeforeSendingSendNothing() async throws {
        let (client, transport) = Fixture.client([]) { $0.passwordLength = 10...20 }
        await #expect { try await client.register(email: "not an address", password: "short", passwordConfirmation: "other") } throws: { error in
            guard case FrontdoorClientError.invalid(let errors) = error else { return false }
            return errors.fieldNames == ["email", "password", "password_confirmation"] && errors.keys(for: "password") == ["too_short"]
        }
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(email: "", password: "") }
        await #expect(throws: FrontdoorClientError.self) { try await client.remindPassword(email: "nope") }
        await #expect(throws: FrontdoorClientError.self) { try await client.registerResidence(email: "nope") }
        await #expect(throws: FrontdoorClientError.notSignedIn) { try await client.changePassword(to: "long enough pw") }
        await #expect(throws: FrontdoorClientError.notSignedIn) { try await client.update(fields: ["displayName": "A"]) }
        await #expect(throws: FrontdoorClientError.notSignedIn) { try await client.deleteAccount() }
        await #expect(throws: FrontdoorClientError.notSignedIn) { try await client.signOut() }
        #expect(transport.sent.isEmpty)
    }

    @Test func signOutForgetsTheCredentialsEvenWhenTheServerFails() async throws {
        let (client, transport) = Fixture.client([
            .answer(201, Fixture.userJSON()), .answer(200, "{}"),
            .answer(201, Fixture.userJSON()), .fail(.cannotConnectToHost), .fail(.cannotConnectToHost), .fail(.cannotConnectToHost),
        ])
        try await client.signIn(email: "ann@example.com", password: "pw")
        try await client.signOut()
        #expect(transport.sent[1].method == "DELETE")
        #expect(transport.sent[1].path == "/account/v1/users/sign_out")
        #expect(client.credentials == nil)
        try await client.signIn(email: "ann@example.com", password: "pw")
        await #expect { try await client.signOut() } throws: { error in
            guard case FrontdoorClientError.connection = error else { return false }
            return true
        }
        #expect(client.credentials == nil)
    }

    @Test func deleteAndResetHandleTheCredentials() async throws {
        let (client, transport) = Fixture.client([
            .answer(201, Fixture.userJSON()), .answer(200, Fixture.userJSON()), .answer(200, Fixture.userJSON(token: "tok-reset")),
            .answer(201, "{}"),
        ])
        try await client.signIn(email: "ann@example.com", password: "pw")
        try await client.deleteAccount(currentPassword: "pw")
        #expect(transport.sent[1].method == "DELETE")
        #expect(transport.sent[1].path == "/account/v1/users")
        #expect(transport.sent[1].user == ["currentPassword": "pw"])
        #expect(client.credentials == nil)
        try await client.resetPassword(token: "mailed", password: "a new password")
        #expect(transport.sent[2].headers["X-User-Token"] == nil)
        #expect(transport.sent[2].user == ["resetPasswordToken": "mailed", "password": "a new password", "passwordConfirmation": "a new password"])
        #expect(client.credentials?.secret == "tok-reset")
        try await client.remindPassword(email: "ann@example.com")
        #expect(transport.sent[3].path == "/account/v1/users/password")
        #expect(transport.sent[3].user == ["email": "ann@example.com"])
    }

    @Test func retriesConnectionFailuresOnlyAndOnlyAsOftenAsConfigured() async throws {
        let (client, transport) = Fixture.client([.fail(.cannotConnectToHost), .fail(.networkConnectionLost), .answer(201, "{}")])
        try await client.remindPassword(email: "ann@example.com")
        #expect(transport.sent.count == 3)

        let (once, onceTransport) = Fixture.client([.fail(.cannotConnectToHost), .fail(.cannotConnectToHost), .answer(201, "{}")]) {
            $0.retries = 1
        }
        await #expect { try await once.remindPassword(email: "ann@example.com") } throws: { error in
            guard case FrontdoorClientError.connection = error else { return false }
            return true
        }
        #expect(onceTransport.sent.count == 2)

        let (timing, timingTransport) = Fixture.client([.fail(.timedOut), .answer(201, "{}")])
        await #expect(throws: FrontdoorClientError.self) { try await timing.remindPassword(email: "ann@example.com") }
        #expect(timingTransport.sent.count == 1)

        let (http, httpTransport) = Fixture.client([.answer(503, "{}"), .answer(201, "{}")])
        await #expect { try await http.remindPassword(email: "ann@example.com") } throws: { error in
            guard case FrontdoorClientError.server(503, _) = error else { return false }
            return true
        }
        #expect(httpTransport.sent.count == 1)
    }

    @Test func backoffDoublesFromTheBase() {
        let configuration = FrontdoorClient.Configuration(serverURL: Fixture.server)
        #expect(configuration.retries == 2)
        #expect(configuration.timeout == 30)
        #expect(configuration.retryBackoff == 0.5)
        #expect([1, 2, 3].map(configuration.delay(beforeRetry:)) == [0.5, 1, 2])
        let paths = FrontdoorClient.Configuration(serverURL: URL(string: "https://example.com/account/")!, apiVersion: 2)
        #expect(paths.url("people/sign_in").absoluteString == "https://example.com/account/v2/people/sign_in")
    }

    @Test func anUnreachableServerIsAConnectionErrorOverURLSession() async throws {
        let client = FrontdoorClient(configuration: .init(serverURL: URL(string: "http://127.0.0.1:9/account")!, retries: 1, retryBackoff: 0.01),
                                     store: MemoryCredentialsStore())
        await #expect { try await client.signIn(email: "a@example.com", password: "pw") } throws: { error in
            guard case FrontdoorClientError.connection = error else { return false }
            return true
        }
    }
}
