// FakeTransport.swift: an HTTPTransport that answers from a script and records what was sent.
import Foundation
import FrontdoorClient
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers each request with the next scripted result (an answer, or an error to throw) and records the requests.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    enum Step {
        case answer(Int, String)
        case fail(URLError.Code)
    }

    struct Sent {
        var method: String
        var path: String
        /// The URL as sent, escapes kept.
        var url: String
        var headers: [String: String]
        var json: [String: Any]?
    }

    private let lock = Lock()
    private var steps: [Step]
    private var recorded: [Sent] = []

    init(_ steps: [Step]) { self.steps = steps }

    var sent: [Sent] { lock.withLock { recorded } }

    func send(_ request: URLRequest) async throws -> HTTPAnswer {
        let step: Step = lock.withLock {
            recorded.append(Sent(method: request.httpMethod ?? "GET", path: request.url?.path ?? "", url: request.url?.absoluteString ?? "",
                                 headers: request.allHTTPHeaderFields ?? [:],
                                 json: request.httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }))
            return steps.isEmpty ? .answer(500, "{}") : steps.removeFirst()
        }
        switch step {
        case .answer(let status, let body): return HTTPAnswer(status: status, body: Data(body.utf8))
        case .fail(let code): throw URLError(code)
        }
    }
}

extension FakeTransport.Sent {
    /// The "user" object of the body, as text values.
    var user: [String: String] { (json?["user"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String } }
}

enum Fixture {
    static let server = URL(string: "http://127.0.0.1:9/account")!
    static let confirmationSent = #"{"user":{"id":null,"email":"Ann@Example.com","authenticationToken":null,"createdAt":null,"#
        + #""updatedAt":null},"confirmationSent":true}"#
    static let createdAt = Date(timeIntervalSince1970: 1_795_514_400)   // 2026-11-24T10:00:00.000Z
    static let updatedAt = Date(timeIntervalSince1970: 1_795_514_700)   // 2026-11-24T10:05:00Z

    static func userJSON(id: Int = 12, email: String = "ann@example.com", token: String? = "tok-1", extra: String = "") -> String {
        let token = token.map { "\"\($0)\"" } ?? "null"
        return #"{"user":{"id":\#(id),"email":"\#(email)","authenticationToken":\#(token),"#
            + #""createdAt":"2026-11-24T10:00:00.000Z","updatedAt":"2026-11-24T10:05:00Z"\#(extra)}}"#
    }

    /// 201 answers to sign-ins, one per name, in order: account `index + 1`, `<name>@example.com`, token `tok-<name>`.
    static func signIns(_ names: String...) -> [FakeTransport.Step] {
        names.enumerated().map { index, name in
            .answer(201, userJSON(id: index + 1, email: "\(name)@example.com", token: "tok-\(name)"))
        }
    }

    static func client(_ steps: [FakeTransport.Step], store: any CredentialsStore = MemoryCredentialsStore(),
                       configure: (inout FrontdoorClient.Configuration) -> Void = { _ in }) -> (FrontdoorClient, FakeTransport) {
        var configuration = FrontdoorClient.Configuration(serverURL: server, retryBackoff: 0.001)
        configure(&configuration)
        let transport = FakeTransport(steps)
        return (FrontdoorClient(configuration: configuration, store: store, transport: transport), transport)
    }
}
