// ClientLogTests.swift: the logging levels (none / warnings / everything), and that no level ever carries a secret:
// every flow of the client is run against the real server at `.everything` and the lines are searched for each
// password, API token, residence secret and provider token that went over the wire.
import Foundation
@testable import FrontdoorClient
import Locking
import Testing

/// Collects the lines a client logs.
final class LogLines: @unchecked Sendable {
    private let lock = Lock()
    private var lines: [(FrontdoorClient.LogLevel, String)] = []

    var sink: FrontdoorClient.LogSink { { [self] level, line in lock.withLock { lines.append((level, line)) } } }
    var all: [String] { lock.withLock { lines.map(\.1) } }
    func at(_ level: FrontdoorClient.LogLevel) -> [String] { lock.withLock { lines.filter { $0.0 == level }.map(\.1) } }
}

@Suite struct ClientLogTests {
    static let steps: [FakeTransport.Step] = [
        .fail(.cannotConnectToHost), .answer(201, Fixture.userJSON(token: "tok-secret-1")),
        .answer(401, #"{"error":"Invalid email or password."}"#),
    ]

    func run(_ level: FrontdoorClient.LogLevel) async throws -> LogLines {
        let lines = LogLines()
        let (client, _) = Fixture.client(Self.steps) {
            $0.logLevel = level
            $0.logSink = lines.sink
        }
        try await client.signIn(email: "ann@example.com", password: "hunter2-password")
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(email: "ann@example.com", password: "wrong-password") }
        await #expect(throws: FrontdoorClientError.self) { try await client.changePassword(to: "x") }
        return lines
    }

    @Test func noneLogsNothing() async throws {
        #expect(try await run(.none).all.isEmpty)
    }

    @Test func warningsAreRetriesRefusalsAndChecksOnly() async throws {
        let lines = try await run(.warnings)
        #expect(lines.all == [
            "POST v1/users/sign_in: no connection (URLError \(URLError.Code.cannotConnectToHost.rawValue)); retry 1 of 2 in 0.001 s",
            "401 POST v1/users/sign_in: Invalid email or password.",
            "not sent: invalid password",
        ])
        #expect(lines.at(.everything).isEmpty)
    }

    @Test func everythingAddsEachRequestAndAnswer() async throws {
        let lines = try await run(.everything)
        #expect(lines.at(.warnings).count == 3)
        let requests = lines.at(.everything)
        #expect(requests.count == 3)
        #expect(requests[0] == "POST v1/users/sign_in")
        #expect(requests[1].hasPrefix("201 POST v1/users/sign_in ("))
        #expect(requests[2] == "POST v1/users/sign_in")
        for line in lines.all {
            #expect(!line.contains("hunter2") && !line.contains("wrong-password") && !line.contains("tok-secret"))
        }
    }

    @Test func theDefaultIsNoneAndTheDefaultSinkIsStandardError() {
        let configuration = FrontdoorClient.Configuration(serverURL: Fixture.server)
        #expect(configuration.logLevel == .none)
        #expect(FrontdoorClient.LogLevel.none < .warnings && FrontdoorClient.LogLevel.warnings < .everything)
    }
}

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct ClientLogIntegrationTests {
    @Test func everyFlowAtEverythingLeaksNoSecret() async throws {
        let stack = try await TestServer.social.stack()
        let lines = LogLines()
        let configuration = FrontdoorClient.Configuration(serverURL: stack.base, timeout: 10, logLevel: .everything, logSink: lines.sink)
        let client = FrontdoorClient(configuration: configuration, store: MemoryCredentialsStore())
        let email = Integration.email("log")
        var secrets = [Integration.password, "another long password", "a wrong password!"]
        try await client.register(email: email, password: Integration.password)
        secrets.append(try Integration.credentials(of: client).secret)
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(email: email, password: "a wrong password!") }
        try await client.signIn(email: email, password: Integration.password)
        secrets.append(try Integration.credentials(of: client).secret)
        try await client.changePassword(to: "another long password", currentPassword: Integration.password)
        try await client.update(fields: ["displayName": "Logged"])
        let label = "l\(UUID().uuidString.prefix(8).lowercased())"
        let providerToken = FakeTokenInfo.token(label)
        secrets.append(providerToken)
        try await client.signIn(with: .google, token: providerToken)
        secrets.append(try Integration.credentials(of: client).secret)
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(with: .google, token: "ya29.refused-token") }
        secrets.append("ya29.refused-token")
        try await client.registerResidence(email: email)
        secrets.append(try #require(try client.store.credentials(forKey: "residence:\(email)")).secret)
        #expect(try await client.verifyResidence(email: email) == false)
        try await Integration.approveResidence(stack, email: email)
        #expect(try await client.verifyResidence(email: email))
        secrets.append(try #require(try client.residenceToken(for: email)))
        try await client.signOutAll()

        let all = lines.all
        #expect(all.contains("POST v1/users/sign_in"))
        #expect(all.contains { $0.hasPrefix("401 POST v1/users/sign_in: ") })
        #expect(all.contains { $0.hasPrefix("201 POST v1/users/auth/google (") })
        #expect(all.contains { $0.hasPrefix("409 POST v1/residences/") })
        #expect(all.contains("signed out: \(email)"))
        for secret in secrets {
            #expect(secret.count >= 8)
            let leaking = all.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "a log line carries a secret: \(leaking.count) line(s)")
        }
    }
}
