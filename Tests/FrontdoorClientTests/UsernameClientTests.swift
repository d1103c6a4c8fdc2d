// UsernameClientTests.swift: the user's username, display name and declared profile fields, read from the wire and
// from a real frontdoor (usernames chosen where its `identity.username` allows), and the username rule checked before
// sending.
import AccountRules
import Foundation
@testable import FrontdoorClient
import Testing

extension TestServer {
    /// People choose their username (`identity.username: optional`).
    static let usernames = TestServer(["identity.username": "optional"])
}

@Suite struct UsernameWireTests {
    @Test func readsTheUsernameDisplayNameAndProfileAndToleratesAnOlderServer() throws {
        let body = Data(Fixture.userJSON(extra: #","username":"ann","displayName":"Ann Lee","profile":{"nickname":"annie"},"nickname":"annie""#).utf8)
        let user = try Wire.decode(Wire.UserEnvelope.self, from: body).user
        #expect(user.username == "ann" && user.displayName == "Ann Lee" && user.profile == ["nickname": "annie"])
        let older = try Wire.decode(Wire.UserEnvelope.self, from: Data(Fixture.userJSON().utf8)).user
        #expect(older.username == nil && older.displayName == nil && older.profile.isEmpty)
    }

    @Test func aUsernameBreakingTheRuleIsNeverSent() async throws {
        let transport = FakeTransport([])
        let client = FrontdoorClient(configuration: .init(serverURL: URL(string: "https://login.example")!), store: MemoryCredentialsStore(),
                                     transport: transport)
        await #expect(throws: FrontdoorClientError.self) {
            try await client.register(email: "ann@example.com", password: "correct horse battery", username: "42ann")
        }
        #expect(transport.sent.isEmpty)
    }
}

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct UsernameIntegrationTests {
    @Test func aChosenUsernameComesBackAndCanBeChanged() async throws {
        let stack = try await TestServer.usernames.stack()
        let client = Integration.client(stack)
        let email = Integration.email("named")
        let name = "Named-" + String(email.prefix(14).suffix(8))
        guard case .signedIn(let user) = try await client.register(email: email, password: Integration.password, username: name,
                                                                   fields: ["displayName": "Named One"]) else {
            Issue.record("expected a signed-in registration (confirmation is off)"); return
        }
        #expect(user.username == name && user.displayName == "Named One")
        let renamed = try await client.update(username: name + "x")
        #expect(renamed.username == name + "x")
        #expect(try await client.reload().username == name + "x")
    }

    @Test func theDeclaredFieldsAnAppRegisteredComeBack() async throws {
        let stack = try await TestServer.social.stack()
        let client = Integration.client(stack)
        let email = Integration.email("fields")
        guard case .signedIn(let user) = try await client.register(email: email, password: Integration.password,
                                                                   fields: ["nickname": "nick-" + String(email.prefix(13).suffix(6))]) else {
            Issue.record("expected a signed-in registration"); return
        }
        #expect(user.profile["nickname"]?.hasPrefix("nick-") == true)
        #expect(user.username == String(email.split(separator: "@")[0]), "made from the address")
        let updated = try await client.update(fields: ["nickname": "renamed-" + String(email.prefix(13).suffix(6))])
        #expect(updated.profile["nickname"]?.hasPrefix("renamed-") == true)
    }
}
