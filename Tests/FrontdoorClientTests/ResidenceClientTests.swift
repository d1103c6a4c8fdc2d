// ResidenceClientTests.swift: the residence calls against a scripted transport, and the local state they keep.
import Foundation
import FrontdoorClient
import Testing

@Suite struct ResidenceClientTests {
    let registered = #"{"id":"AbCdEfGhIjKlMnOpQrStUv","state":"pending","secret":"s3cret"}"#
    let collected = #"{"email":"ann@example.com","state":"verified","token":"tok-res"}"#

    @Test func registerThenPendingThenVerified() async throws {
        let store = MemoryCredentialsStore()
        let (client, transport) = Fixture.client([
            .answer(201, registered), .answer(409, #"{"state":"pending"}"#), .answer(200, collected),
        ], store: store) { $0.extraParameters = [.registerResidence: ["device": "Ann's phone"]] }
        try await client.registerResidence(email: "Ann@Example.COM")
        #expect(transport.sent[0].path == "/account/v1/residences")
        #expect(transport.sent[0].json?["email"] as? String == "ann@example.com")
        #expect(transport.sent[0].json?["device"] as? String == "Ann's phone")
        #expect(try client.isEmailRegistered("ann@EXAMPLE.com"))
        #expect(try !client.isEmailVerified("ann@example.com"))
        #expect(try client.residenceToken(for: "ann@example.com") == nil)
        #expect(try store.keys() == ["residence:ann@example.com"])

        #expect(try await client.verifyResidence(email: "ann@example.com") == false)
        #expect(transport.sent[1].path == "/account/v1/residences/AbCdEfGhIjKlMnOpQrStUv/verify")
        #expect(transport.sent[1].json?["secret"] as? String == "s3cret")
        #expect(transport.sent[1].headers["X-User-Token"] == nil)

        #expect(try await client.verifyResidence(email: "ann@example.com"))
        #expect(try client.isEmailVerified("ANN@example.com"))
        #expect(try client.residenceToken(for: "ann@example.com") == "tok-res")
        // Verified locally from now on: no further call.
        #expect(try await client.verifyResidence(email: "ann@example.com"))
        #expect(transport.sent.count == 3)
        #expect(client.credentials == nil)
    }

    @Test func useResidenceSignsInWithTheCollectedToken() async throws {
        let (client, transport) = Fixture.client([
            .answer(201, registered), .answer(200, collected), .answer(200, Fixture.userJSON(id: 7, token: "tok-res")),
        ])
        try await client.registerResidence(email: "ann@example.com")
        try await client.verifyResidence(email: "ann@example.com")
        let user = try await client.useResidence(email: "ann@example.com")
        #expect(user.id == 7)
        #expect(transport.sent[2].method == "PUT")
        #expect(transport.sent[2].headers["X-User-Email"] == "ann@example.com")
        #expect(transport.sent[2].headers["X-User-Token"] == "tok-res")
        #expect(client.currentUser == User(id: 7, email: "ann@example.com", authenticationToken: "tok-res"))
    }

    @Test func aRefusedTokenKeepsTheEarlierCredentials() async throws {
        let (client, _) = Fixture.client([
            .answer(201, Fixture.userJSON(email: "bob@example.com")), .answer(201, registered), .answer(200, collected),
            .answer(401, #"{"error":"no"}"#),
        ])
        try await client.signIn(email: "bob@example.com", password: "pw")
        try await client.registerResidence(email: "ann@example.com")
        try await client.verifyResidence(email: "ann@example.com")
        await #expect(throws: FrontdoorClientError.unauthorized(message: "no")) { try await client.useResidence(email: "ann@example.com") }
        #expect(client.credentials?.username == "bob@example.com")
        await #expect(throws: FrontdoorClientError.self) { try await client.useResidence(email: "nobody@example.com") }
    }

    @Test func unknownAndRefusedResidencesAreForgotten() async throws {
        let (client, _) = Fixture.client([
            .answer(201, registered), .answer(404, #"{"error":{"message":"There is no such request, or it has expired.","code":0,"status":404}}"#),
            .answer(201, registered), .answer(403, #"{"state":"refused","error":{"message":"refused","code":0,"status":403}}"#),
            .answer(201, registered), .answer(429, #"{"error":{"message":"wait","code":0,"status":429}}"#),
        ])
        try await client.registerResidence(email: "ann@example.com")
        await #expect(throws: FrontdoorClientError.notFound(message: "There is no such request, or it has expired.")) {
            try await client.verifyResidence(email: "ann@example.com")
        }
        #expect(try !client.isEmailRegistered("ann@example.com"))
        try await client.registerResidence(email: "ann@example.com")
        await #expect(throws: FrontdoorClientError.forbidden(message: "refused")) { try await client.verifyResidence(email: "ann@example.com") }
        #expect(try client.allEmails() == [])
        try await client.registerResidence(email: "ann@example.com")
        await #expect(throws: FrontdoorClientError.throttled(message: "wait")) { try await client.registerResidence(email: "ann@example.com") }
        #expect(try client.isEmailRegistered("ann@example.com"))
        await #expect(throws: FrontdoorClientError.self) { try await client.verifyResidence(email: "never@example.com") }
    }

    @Test func localQueriesSeeOnlyThisServersResidences() async throws {
        let store = MemoryCredentialsStore()
        let (client, _) = Fixture.client([.answer(201, registered), .answer(201, registered), .answer(201, Fixture.userJSON())], store: store)
        try await client.registerResidence(email: "b@example.com")
        try await client.registerResidence(email: "a@example.com")
        try await client.signIn(email: "ann@example.com", password: "pw")
        try store.set(Credentials(username: "c@example.com", secret: "x", url: URL(string: "https://elsewhere.example")!),
                      forKey: "residence:c@example.com")
        #expect(try client.allEmails() == ["a@example.com", "b@example.com"])
        try client.removeAllResidences()
        #expect(try client.allEmails() == [])
        #expect(try store.keys() == ["account:ann@example.com", "default", "residence:c@example.com"])
        #expect(client.isSignedIn)
    }
}
