// ReturnTarget.swift: decides whether a return target (`rd`) may be followed: paths on this site, or URLs on allowed hosts.
import Foundation

/// The hosts return targets may point at: `public_url`'s host and the `redirect.allowed_hosts` patterns
/// (`app.example.com`: that host; `.example.com`: the domain and every subdomain). Ports are not compared.
public struct AllowedHosts: Sendable, Equatable {
    let publicHost: String?
    let patterns: [String]

    public init(publicURL: String, patterns: [String]) {
        publicHost = URLComponents(string: publicURL)?.host?.lowercased()
        self.patterns = patterns.map { $0.lowercased() }
    }

    /// Whether `host` (lower-cased, without port) is this site's or matches a pattern.
    public func allows(_ host: String) -> Bool {
        if host == publicHost { return true }
        return patterns.contains { pattern in
            pattern.hasPrefix(".") ? (host == pattern.dropFirst() || host.hasSuffix(pattern)) : host == pattern
        }
    }
}

/// Checks return targets so that sign-in can never redirect to a host nobody allowed (no open redirect).
public enum ReturnTarget {
    /// `raw` when it is a path on this site or an http(s) URL on an allowed host, else `fallback`.
    ///
    /// Refused: URLs on other hosts, scheme-relative (`//evil`), backslash tricks (`/\evil`, `\/evil`), `https:evil`,
    /// user info (`https://good@evil`), control characters and spaces, and any of these behind percent-encoding
    /// (`%2F%2Fevil`).
    public static func checked(_ raw: String?, fallback: String, allowedHosts: AllowedHosts? = nil) -> String {
        guard let raw, !raw.isEmpty, raw.utf8.count <= 2048 else { return fallback }
        if let allowedHosts, let host = absoluteHost(raw) {
            return allowedHosts.allows(host) ? raw : fallback
        }
        var candidate = raw
        for _ in 0..<3 {
            guard isLocalPath(candidate) else { return fallback }
            let decoded = FormData.decodePath(candidate)
            if decoded == candidate { return raw }
            candidate = decoded
        }
        return isLocalPath(candidate) ? raw : fallback
    }

    private static func isLocalPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") { return false }
        return !bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }
    }

    /// The host of a well-formed `http://` or `https://` URL (lower-cased, port dropped), or nil when `raw` is not
    /// one: only printable ASCII without backslashes, no user info, a host of letters, digits, dots and dashes
    /// (or a bracketed IPv6 address), an optional numeric port, then nothing or `/`, `?` or `#`.
    /// Public for the fuzz targets (fuzz/).
    public static func absoluteHost(_ raw: String) -> String? {
        let bytes = Array(raw.utf8)
        guard !bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else { return nil }
        let lower = raw.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8) } else if lower.hasPrefix("http://") { rest = lower.dropFirst(7) } else {
            return nil
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains("%") else { return nil }
        var host = authority
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let port = host[host.index(after: close)...]
            guard port.isEmpty || (port.hasPrefix(":") && isPort(port.dropFirst())) else { return nil }
            host = host[...close]
            return host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) ? String(host) : nil
        }
        if let colon = host.firstIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard isPort(port) else { return nil }
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" }),
              !host.hasPrefix("."), !host.hasPrefix("-") else { return nil }
        return String(host)
    }

    private static func isPort(_ text: Substring) -> Bool { text.allSatisfy(\.isASCII) && UInt16(text) != nil }
}
