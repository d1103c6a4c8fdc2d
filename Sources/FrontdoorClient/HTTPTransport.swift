// HTTPTransport.swift: how requests reach the server, and the retries after connection errors.
//
// Options: the transport itself (URLSessionTransport by default: an ephemeral URLSession that neither sends nor
// keeps cookies, since the API ignores them), and from Configuration `timeout`, `retries` and `retryBackoff`.
// Retried: errors where the request cannot have reached the server (cannot connect, cannot find the host, no
// network, a lost connection, usually a kept-alive one the server had closed). Never retried: any HTTP answer, and a
// timeout (the server may have acted on it).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer: status, headers (names lower-cased) and body.
public struct HTTPAnswer: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends one request and returns the answer, or throws (a `URLError` for a network failure).
public protocol HTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> HTTPAnswer
}

/// The default transport, over URLSession (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport on its own ephemeral session without cookies.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        self.init(session: URLSession(configuration: configuration))
    }

    /// A transport on `session`.
    public init(session: URLSession) { self.session = session }

    public func send(_ request: URLRequest) async throws -> HTTPAnswer {
        // URLSession's async methods are missing from older FoundationNetworking: wrap the callback API.
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    var headers: [String: String] = [:]
                    for (name, value) in response.allHeaderFields {
                        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                    }
                    continuation.resume(returning: HTTPAnswer(status: response.statusCode, headers: headers, body: data ?? Data()))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            task.resume()
        }
    }
}

extension URLError.Code {
    /// Whether the request cannot have reached the server, so sending it again is safe.
    var isConnectionFailure: Bool {
        switch self {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .networkConnectionLost:
            return true
        default:
            return false
        }
    }
}
