// SeveralAccountsTests.swift: several accounts on one device (BMCredentials' keyed credentials): a second sign-in keeps
// the first, accounts() lists them, switchAccount changes the one the calls use, signOut ends one or all; against a
// scripted transport and against the real server, in the memory, file (and, on Apple platforms, keychain) stores.
import Foundation
@testable import FrontdoorClient
import Testing

@Suite struct SeveralAccountsTests {
    @Test func aSecondSignInKeepsTheFirstAndSwitchingPicksTheHeaders() async throws {
        let store = MemoryCredentialsStore()
        let (client, transport) = Fixture.client(Fixture.signIns("ann", "bob") + [
            .answer(200, Fixture.userJSON(id: 2, email: "bob@example.com", token: "tok-bob")),
            .answer(200, Fixture.userJSON(id: 1, email: "ann@example.com", token: "tok-ann")),
        ], store: store)
        try await client.signIn(email: "ann@example.com", password: "pw")
        try await client.signIn(email: "bob@example.com", password: "pw")
        #expect(try client.accounts() == [User(id: 1, email: "ann@example.com", authenticationToken: "tok-ann"),
                                          User(id: 2, email: "bob@example.com", authenticationToken: "tok-bob")])
        #expect(client.currentUser?.email == "bob@example.com")
        _ = try await client.reload()
        #expect(try client.switchAccount(to: "ANN@example.com").id == 1)
        #expect(client.currentUser?.id == 1)
        _ = try await client.reload()
        #expect(transport.sent[2].headers["X-User-Token"] == "tok-bob")
        #expect(transport.sent[3].headers["X-User-Token"] == "tok-ann")
        #expect(try store.keys() == ["account:ann@example.com", "account:bob@example.com", "default"])
        #expect(throws: FrontdoorClientError.notSignedIn) { try client.switchAccount(to: "carol@example.com") }
        #expect(client.currentUser?.id == 1)
    }

    @Test func signingOutOneKeepsTheOthersAndNoneIsActiveAfterTheActiveOne() async throws {
        let (client, transport) = Fixture.client(Fixture.signIns("ann", "bob", "cat") + [
            .answer(200, "{}"), .answer(200, "{}"),
        ])
        for name in ["ann", "bob", "cat"] { try await client.signIn(email: "\(name)@example.com", password: "pw") }
        try await client.signOut(email: "ann@example.com")          // not the active one
        #expect(transport.sent[3].path == "/account/v1/users/sign_out")
        #expect(transport.sent[3].headers["X-User-Token"] == "tok-ann")
        #expect(client.currentUser?.email == "cat@example.com")
        try await client.signOut()                                   // the active one
        #expect(transport.sent[4].headers["X-User-Token"] == "tok-cat")
        #expect(client.currentUser == nil)
        #expect(try client.accounts().map(\.email) == ["bob@example.com"])
        await #expect(throws: FrontdoorClientError.notSignedIn) { try await client.signOut() }
        await #expect(throws: FrontdoorClientError.notSignedIn) { try await client.signOut(email: "ann@example.com") }
        #expect(try client.switchAccount(to: "bob@example.com").authenticationToken == "tok-bob")
    }

    @Test func signOutAllTriesEveryAccountAndForgetsThemEvenWhenOneFails() async throws {
        let store = MemoryCredentialsStore()
        let (client, transport) = Fixture.client(Fixture.signIns("ann", "bob") + [
            .answer(401, #"{"error":"You need to sign in or sign up before continuing."}"#), .answer(200, "{}"),
        ], store: store)
        try await client.signIn(email: "ann@example.com", password: "pw")
        try await client.signIn(email: "bob@example.com", password: "pw")
        try store.set(Credentials(username: "r@example.com", secret: "residence", url: Fixture.server), forKey: "residence:r@example.com")
        await #expect(throws: FrontdoorClientError.unauthorized(message: "You need to sign in or sign up before continuing.")) {
            try await client.signOutAll()
        }
        #expect(Set(transport.sent.dropFirst(2).compactMap { $0.headers["X-User-Token"] }) == ["tok-ann", "tok-bob"])
        #expect(try client.accounts().isEmpty)
        #expect(try store.keys() == ["residence:r@example.com"])
    }

    @Test func theSingleAccountAPIKeepsWorkingWithHandSetDefaultCredentials() async throws {
        let store = MemoryCredentialsStore()
        try store.setDefaultCredentials(Credentials(username: "old@example.com", secret: "tok-old", url: Fixture.server, extra: ["id": "7"]))
        let (client, _) = Fixture.client([.answer(201, Fixture.userJSON(id: 8, email: "new@example.com", token: "tok-new"))], store: store)
        #expect(try client.accounts() == [User(id: 7, email: "old@example.com", authenticationToken: "tok-old")])
        try await client.signIn(email: "new@example.com", password: "pw")
        // The hand-set account was only the default: signing in to another one keeps it.
        #expect(try client.accounts().map(\.email) == ["new@example.com", "old@example.com"])
        #expect(client.currentUser?.email == "new@example.com")
        #expect(try client.switchAccount(to: "old@example.com").authenticationToken == "tok-old")
        // Another server's credentials in the same store are not this client's accounts.
        try store.set(Credentials(username: "x@example.com", secret: "t", url: URL(string: "https://elsewhere.example")!),
                      forKey: "account:x@example.com")
        #expect(try client.accounts().map(\.email) == ["new@example.com", "old@example.com"])
    }

    @Test func anAddressChangeAndASecondSignInToTheSameAccountKeepOneEntry() async throws {
        let store = MemoryCredentialsStore()
        let (client, _) = Fixture.client([
            .answer(201, Fixture.userJSON(id: 1, email: "ann@example.com", token: "tok-1")),
            .answer(200, Fixture.userJSON(id: 1, email: "ann.new@example.com", token: nil)),
            .answer(201, Fixture.userJSON(id: 1, email: "ann.new@example.com", token: "tok-2")),
        ], store: store)
        try await client.signIn(email: "ann@example.com", password: "pw")
        _ = try await client.reload()
        #expect(try store.keys() == ["account:ann.new@example.com", "default"])
        try await client.signIn(email: "ann@example.com", password: "pw")
        #expect(try client.accounts() == [User(id: 1, email: "ann.new@example.com", authenticationToken: "tok-2")])
    }

    @Test func theFileStoreKeepsEveryAccountAcrossLaunches() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fdc-accounts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/credentials.json"
        let (client, _) = Fixture.client(Fixture.signIns("ann", "bob"), store: FileCredentialsStore(path: path))
        try await client.signIn(email: "ann@example.com", password: "pw")
        try await client.signIn(email: "bob@example.com", password: "pw")
        let relaunched = FrontdoorClient(configuration: .init(serverURL: Fixture.server), store: FileCredentialsStore(path: path))
        #expect(try relaunched.accounts().map(\.id) == [1, 2])
        #expect(relaunched.currentUser?.id == 2)
        try relaunched.switchAccount(to: "ann@example.com")
        #expect(FrontdoorClient(configuration: .init(serverURL: Fixture.server), store: FileCredentialsStore(path: path)).currentUser?.id == 1)
    }

    #if canImport(Security)
    @Test func theKeychainStoreKeepsKeyedCredentials() throws {
        let store = KeychainCredentialsStore(service: "FrontdoorClientTests-\(UUID().uuidString)")
        defer { try? store.removeAll() }
        let ann = Credentials(username: "ann@example.com", secret: "tok-ann", url: Fixture.server, extra: ["id": "1"])
        try store.set(ann, forKey: "account:ann@example.com")
        try store.setDefaultCredentials(ann)
        #expect(try store.keys() == ["account:ann@example.com", "default"])
        #expect(try store.credentials(forKey: "account:ann@example.com") == ann)
    }
    #endif
}

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct SeveralAccountsIntegrationTests {
    @Test func twoAccountsSignedInAtOnceEachWithItsOwnToken() async throws {
        let stack = try await TestServer.shared.stack()
        let client = Integration.client(stack)
        let ann = Integration.email("ann"), bob = Integration.email("bob")
        try await client.register(email: ann, password: Integration.password)
        try await client.register(email: bob, password: Integration.password)
        #expect(try client.accounts().map(\.email) == [ann, bob])
        #expect(try await client.reload().email == bob)
        try client.switchAccount(to: ann)
        #expect(try await client.reload().email == ann)
        let annToken = try Integration.credentials(of: client)
        // Signing Bob out ends his token only: Ann's still works, and stays the active one.
        try client.switchAccount(to: bob)
        let bobToken = try Integration.credentials(of: client)
        try await client.signOut(email: bob)
        #expect(client.currentUser == nil)
        try client.switchAccount(to: ann)
        #expect(try await client.reload().email == ann)
        try client.store.setDefaultCredentials(bobToken)
        await #expect(throws: FrontdoorClientError.unauthorized(message: "You need to sign in or sign up before continuing.")) {
            try await client.reload()
        }
        try client.store.setDefaultCredentials(annToken)
        try await client.signOutAll()
        #expect(try client.accounts().isEmpty)
        try client.store.setDefaultCredentials(annToken)
        await #expect(throws: FrontdoorClientError.unauthorized(message: "You need to sign in or sign up before continuing.")) {
            try await client.reload()
        }
    }
}
