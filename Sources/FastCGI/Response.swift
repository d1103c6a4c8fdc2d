// Response.swift: status, headers and body, written in CGI form ("Status:" line, headers, blank line, body).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the responder answers, as the transport writes it (the application builds its own response type and hands
/// over status, headers and body). The same bytes serve FastCGI (on FCGI_STDOUT) and plain CGI (on stdout).
public struct Response: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Headers in order; a name may repeat (Set-Cookie).
    public var headers: [(name: String, value: String)]
    /// The body bytes, sent as they are.
    public var body: [UInt8]

    /// A response from its parts; 200 with no headers and no body by default.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The CGI form: `Status: 200 OK`, the headers, Content-Length unless set, a blank line, the body.
    /// A header whose name or value holds CR or LF is dropped, so no response can be split.
    /// Built as bytes in one buffer: this runs on every request.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + body.count)
        out.append(contentsOf: "Status: ".utf8)
        Self.appendDecimal(status, to: &out)
        let reason = Self.reasonPhrase(for: status)
        if !reason.isEmpty { out.append(0x20); out.append(contentsOf: reason.utf8) }
        out.append(contentsOf: [13, 10])
        var hasLength = false
        for (name, value) in headers where !name.isEmpty {
            // Bytes, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
            guard !Self.hasLineBreak(name), !Self.hasLineBreak(value) else { continue }
            if !hasLength && name.caseInsensitiveEquals("Content-Length") { hasLength = true }
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: [0x3A, 0x20])
            out.append(contentsOf: value.utf8)
            out.append(contentsOf: [13, 10])
        }
        if !hasLength {
            out.append(contentsOf: "Content-Length: ".utf8)
            Self.appendDecimal(body.count, to: &out)
            out.append(contentsOf: [13, 10])
        }
        out.append(contentsOf: [13, 10])
        out.append(contentsOf: body)
        return out
    }

    /// Whether `text` holds a CR or LF byte. With memchr over the contiguous bytes (the security headers alone are a
    /// kilobyte on every response, and a closure per byte cost a fifth of a gate check's instructions).
    static func hasLineBreak(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, 13, bytes.count) != nil || memchr(base, 10, bytes.count) != nil
        }
        return found ?? text.utf8.contains { $0 == 13 || $0 == 10 }
    }

    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value > 0 else { return out.append(contentsOf: String(value).utf8) }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 { digits.append(UInt8(0x30 + rest % 10)); rest /= 10 }
        out.append(contentsOf: digits.reversed())
    }

    /// The standard reason phrase for `status`, or "" when unknown.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: ""
        }
    }
}

extension String {
    /// ASCII case-insensitive equality (header names are ASCII), without allocating.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }
}
