// HTTPClient.swift: the one call the flows make to a provider (`HTTPClient.send`), its request and answer, and
// which URLs may be called (`ProviderURL`: https, or plain http to a loopback host such as the tests' provider).
// The real client is CurlHTTPClient (libcurl); tests pass a fake with canned answers.
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

/// Which provider URLs are allowed: `https://…`, or `http://` to 127.x.x.x, localhost or [::1] (tests, local providers).
public enum ProviderURL {
    /// Whether `url` is an absolute https URL, or http to a loopback host; no user info (`user@host`) either way.
    public static func isAllowed(_ url: String) -> Bool {
        let lowered = url.lowercased()
        let secure = lowered.hasPrefix("https://")
        guard secure || lowered.hasPrefix("http://") else { return false }
        let rest = lowered.dropFirst(secure ? 8 : 7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"),
              !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f }) else { return false }
        return secure || isLoopback(String(authority))
    }

    /// 127.x.x.x, localhost or [::1], with an optional port (as written: `isAllowed` passes it lower-cased; the
    /// configuration's `browserid.http_hosts` check uses it too).
    public static func isLoopback(_ authority: String) -> Bool {
        var rest = Substring(authority)
        if rest.hasPrefix("[::1]") {
            rest = rest.dropFirst(5)
        } else {
            let host = rest.prefix { $0 != ":" }
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            let loopbackIPv4 = octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
            guard host == "localhost" || loopbackIPv4 else { return false }
            rest = rest.dropFirst(host.count)
        }
        return rest.isEmpty || (rest.first == ":" && UInt16(rest.dropFirst()) != nil)
    }
}
