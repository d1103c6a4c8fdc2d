// HTTPClient.swift: outbound HTTPS for the flows, through libcurl: timeouts, TLS verification on, no redirects,
// bounded answers; plain http only to loopback hosts (the tests' provider).
// (Foundation stub: helper A implements CurlHTTPClient; the public shape below is the contract.)
import Foundation

public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [Header]
    public var body: [UInt8]

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(method: String = "GET", url: String, headers: [Header] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public init(status: Int, contentType: String = "", body: [UInt8] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// Sends one request; throws `OAuthError.unreachable` when no answer came.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}

/// libcurl, as the BrowserID fetcher and SMTP use it.
public struct CurlHTTPClient: HTTPClient {
    public let timeout: TimeInterval
    public let maxBytes: Int
    public init(timeout: TimeInterval = 10, maxBytes: Int = 1 << 20) {
        self.timeout = timeout
        self.maxBytes = maxBytes
    }
    public func send(_ request: HTTPRequest) throws -> HTTPResponse { throw OAuthError.unreachable("not implemented") }
}
