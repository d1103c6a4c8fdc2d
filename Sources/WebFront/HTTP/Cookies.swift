// Cookies.swift: reading the Cookie header and writing Set-Cookie headers with Frontdoor's attributes.
import AccountRules

/// Parses `Cookie: a=1; b=2`. The first cookie of a name wins (the most specific path, per RFC 6265 §5.4).
public enum CookieHeader {
    public static func parse(_ header: String?) -> [String: String] {
        guard let header else { return [:] }
        var cookies: [String: String] = [:]
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0]).trimmingWhitespace()
            var value = String(pair[1]).trimmingWhitespace()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if !name.isEmpty, cookies[name] == nil { cookies[name] = value }
        }
        return cookies
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
