// ActionRulesTests.swift: devise-ios' per-action customisation: extra validation rules checked with AccountRules before
// anything is sent (their own display names and messages), extra fields sent, and renamed JSON keys; against a
// scripted transport and the real server (a declared, unique profile field "nickname").
import AccountRules
import Foundation
@testable import FrontdoorClient
import Testing

@Suite struct ActionRulesTests {
    static let username = Field("registrationUsername", displayName: "Username", rules: [
        .required, Rule.minLength(4).message("should have at least 4 signs"), .maxLength(20),
    ])

    @Test func aFailingActionRuleSendsNothingAndNamesTheFieldAsConfigured() async throws {
        let (client, transport) = Fixture.client([]) { $0.validationRules = [.register: [Self.username]] }
        await #expect { try await client.register(email: "ann@example.com", password: "long enough password",
                                                  fields: ["registrationUsername": "foo"]) } throws: { error in
            guard case FrontdoorClientError.invalid(let errors) = error else { return false }
            return errors.fieldNames == ["registrationUsername"] && error.localizedDescription == "Username should have at least 4 signs"
        }
        await #expect(throws: FrontdoorClientError.self) {
            try await client.register(email: "ann@example.com", password: "long enough password")
        }
        #expect(transport.sent.isEmpty)
    }

    @Test func rulesSeeTheExtraParametersAndApplyOnlyToTheirAction() async throws {
        let (client, transport) = Fixture.client([.answer(201, Fixture.userJSON()), .answer(201, Fixture.userJSON())]) {
            $0.validationRules = [.register: [Self.username], .update: [Field("displayName", displayName: "Name", rules: [.required])]]
            $0.extraParameters = [.register: ["registrationUsername": "annie", "source": "ios"]]
        }
        try await client.register(email: "ann@example.com", password: "long enough password")
        #expect(transport.sent[0].user["registrationUsername"] == "annie")
        #expect(transport.sent[0].user["source"] == "ios")
        try await client.signIn(email: "ann@example.com", password: "pw")   // no rules for signIn
        await #expect(throws: FrontdoorClientError.self) { try await client.update(fields: ["displayName": ""]) }
        #expect(transport.sent.count == 2)
    }

    @Test func fieldNamesRenameTheKeysSentNotTheOnesChecked() async throws {
        let (client, transport) = Fixture.client([.answer(201, Fixture.userJSON()), .answer(200, "{}")]) {
            $0.fieldNames = ["email": "login", "passwordConfirmation": "password_confirmation", "device": "device_name"]
            $0.extraParameters = [.register: ["device": "phone"], .signOut: ["device": "phone"]]
        }
        try await client.register(email: "ann@example.com", password: "long enough password")
        #expect(transport.sent[0].user == ["login": "ann@example.com", "password": "long enough password",
                                           "password_confirmation": "long enough password", "device_name": "phone"])
        try await client.signOut()
        #expect(transport.sent[1].user == ["device_name": "phone"])
        // Residence bodies have no "user" object: their keys are the server's own.
        let (residences, sent) = Fixture.client([.answer(201, #"{"id":"r1","state":"pending","secret":"s"}"#)]) {
            $0.fieldNames = ["email": "login"]
        }
        try await residences.registerResidence(email: "ann@example.com")
        #expect(sent.sent[0].json?["email"] as? String == "ann@example.com")
    }
}

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct ActionRulesIntegrationTests {
    static func nickname() -> String { "n\(UUID().uuidString.prefix(8).lowercased())" }

    @Test func theExtraFieldReachesTheServerAndTheClientRuleStopsWhatTheServerWouldRefuse() async throws {
        let stack = try await TestServer.social.stack()
        let nickname = Self.nickname()
        let first = FrontdoorClient(configuration: .init(serverURL: stack.base, timeout: 10, retryBackoff: 0.05,
                                                         extraParameters: [.register: ["nickname": nickname]]),
                                    store: MemoryCredentialsStore())
        try await first.register(email: Integration.email("nick"), password: Integration.password)
        // The value was stored: the field is unique, and the server says so to a second account asking for it.
        await #expect { try await Integration.client(stack).register(email: Integration.email("nick"), password: Integration.password,
                                                                     fields: ["nickname": nickname]) } throws: { error in
            guard case FrontdoorClientError.validation(_, let fields) = error else { return false }
            return fields["nickname"]?.isEmpty == false
        }
        // The server refuses one character (min_length 2); a client with the rule never sends it.
        await #expect { try await Integration.client(stack).register(email: Integration.email("nick"), password: Integration.password,
                                                                     fields: ["nickname": "x"]) } throws: { error in
            guard case FrontdoorClientError.validation = error else { return false }
            return true
        }
        let lines = LogLines()
        let checked = FrontdoorClient(configuration: .init(serverURL: stack.base, timeout: 10,
                                                           validationRules: [.register: [Field("nickname", displayName: "Nickname",
                                                                                               rules: [.minLength(2)])]],
                                                           logLevel: .everything, logSink: lines.sink),
                                      store: MemoryCredentialsStore())
        await #expect { try await checked.register(email: Integration.email("nick"), password: Integration.password,
                                                   fields: ["nickname": "x"]) } throws: { error in
            guard case FrontdoorClientError.invalid(let errors) = error else { return false }
            return errors.fieldNames == ["nickname"]
        }
        #expect(lines.all == ["not sent: invalid nickname"])
    }

    @Test func renamedKeysAreWhatTheServerReads() async throws {
        let stack = try await TestServer.social.stack()
        let renamed = FrontdoorClient(configuration: .init(serverURL: stack.base, timeout: 10,
                                                           fieldNames: ["passwordConfirmation": "password_confirmation"]),
                                      store: MemoryCredentialsStore())
        guard case .signedIn = try await renamed.register(email: Integration.email("snake"), password: Integration.password) else {
            Issue.record("expected a signed-in registration"); return
        }
        let wrong = FrontdoorClient(configuration: .init(serverURL: stack.base, timeout: 10, fieldNames: ["email": "login"]),
                                    store: MemoryCredentialsStore())
        await #expect { try await wrong.register(email: Integration.email("login"), password: Integration.password) } throws: { error in
            guard case FrontdoorClientError.validation(_, let fields) = error else { return false }
            return fields["email"]?.isEmpty == false
        }
    }
}
