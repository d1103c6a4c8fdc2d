// Cookies.swift: reading the Cookie header and writing Set-Cookie headers with Frontdoor's attributes.

/// Parses `Cookie: a=1; b=2`. The first cookie of a name wins (the most specific path, per RFC 6265 §5.4), which is
/// the one a sibling subdomain plants with a longer Path: cookies that must not be planted are read through
/// `CookieJar.hostBoundValue`, which refuses a repeated name. Works on the header's bytes: every request with cookies
/// goes through it.
public enum CookieHeader {
    public static func parse(_ header: String?) -> [String: String] {
        var cookies: [String: String] = [:]
        forEachPair(header) { name, value in
            let key = String(decoding: name, as: UTF8.self)
            if cookies[key] == nil { cookies[key] = String(decoding: value, as: UTF8.self) }
        }
        return cookies
    }

    /// The names that occur more than once in the header (a browser sends one per Path and Domain it holds).
    public static func repeatedNames(_ header: String?) -> Set<String> {
        var seen: Set<String> = [], repeated: Set<String> = []
        forEachPair(header) { name, _ in
            let key = String(decoding: name, as: UTF8.self)
            if !seen.insert(key).inserted { repeated.insert(key) }
        }
        return repeated
    }

    /// Calls `body` with each (name, value) of the header in order, value unquoted; parts without `=` or a name are skipped.
    private static func forEachPair(_ header: String?, _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
        guard let header else { return }
        let bytes = Array(header.utf8)
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                let name = trimmed(bytes[start..<equals])
                var value = trimmed(bytes[(equals + 1)..<end])
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") { value = value.dropFirst().dropLast() }
                if !name.isEmpty { body(name, value) }
            }
            start = end + 1
        }
    }

    /// `part` without leading and trailing spaces and tabs.
    private static func trimmed(_ part: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var part = part
        while let first = part.first, first == 0x20 || first == 0x09 { part = part.dropFirst() }
        while let last = part.last, last == 0x20 || last == 0x09 { part = part.dropLast() }
        return part
    }
}

/// One Set-Cookie header: always HttpOnly and SameSite=Lax; Secure when asked.
public struct SetCookie: Sendable, Equatable {
    public var name: String
    public var value: String
    public var path: String
    public var maxAge: Int?
    public var secure: Bool
    /// `Domain=`: the cookie also goes to this domain's subdomains; nil: this host only.
    public var domain: String?

    public init(name: String, value: String, path: String, maxAge: Int? = nil, secure: Bool, domain: String? = nil) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.secure = secure
        self.domain = domain
    }

    /// The header value.
    public var headerValue: String {
        var parts = ["\(name)=\(value)", "Path=\(path)"]
        if let domain { parts.append("Domain=\(domain)") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        parts.append("HttpOnly")
        parts.append("SameSite=Lax")
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }
}
