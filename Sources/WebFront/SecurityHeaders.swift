// SecurityHeaders.swift: the headers every response carries (CSP without inline script, no framing, no sniffing).
// A route may set `framingCSP(ancestors:)` instead: then the pages it names may frame it and X-Frame-Options is left out.
// With social sign-in providers, `form-action` also names their authorization endpoints' origins: browsers apply
// form-action to the redirect that follows a form, and the provider buttons post to `auth/<id>`, which redirects there.
// A `logo_url` on another host adds that origin to img-src.
import Foundation

/// Adds the security headers to a response; a header the route already set (a relaxed frame policy later) is kept.
public enum SecurityHeaders {
    static let policy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

    public static let values: [(String, String)] = [
        ("Content-Security-Policy", policy),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-store"),
    ]

    /// The policy of a page the BrowserID protocol needs framed (the provisioning page): only by `ancestors`, source
    /// expressions such as `'self'` or `https://app.example` (never `*`).
    public static func framingCSP(ancestors: [String]) -> String {
        policy.replacingOccurrences(of: "frame-ancestors 'none'", with: "frame-ancestors " + ancestors.joined(separator: " "))
    }

    /// `values`, with `formActions` (origins such as `https://github.com`) added to the policy's form-action and
    /// `images` (the logo's origin) to its img-src.
    static func values(formActions: [String], images: [String] = []) -> [(String, String)] {
        guard !formActions.isEmpty || !images.isEmpty else { return values }
        func widened(_ policy: String) -> String {
            var policy = policy
            if !formActions.isEmpty {
                policy = policy.replacingOccurrences(of: "form-action 'self'", with: "form-action 'self' " + formActions.joined(separator: " "))
            }
            if !images.isEmpty {
                policy = policy.replacingOccurrences(of: "img-src 'self' data:", with: "img-src 'self' data: " + images.joined(separator: " "))
            }
            return policy
        }
        return values.map { name, value in (name, name == "Content-Security-Policy" ? widened(value) : value) }
    }

    /// The scheme, host and port of an http(s) `url` (for a logo on another host), or nil for a path.
    static func origin(of url: String) -> String? {
        guard url.hasPrefix("https://") || url.hasPrefix("http://"), let components = URLComponents(string: url),
              let scheme = components.scheme, let host = components.host, !host.isEmpty else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    static func apply(to response: inout Response, values: [(String, String)] = values) {
        let framingAllowed = response.header("Content-Security-Policy").map { $0.contains("frame-ancestors 'self'") } ?? false
        for (name, value) in values where response.header(name) == nil {
            if name == "X-Frame-Options" && framingAllowed { continue }
            response.addHeader(name, value)
        }
    }
}
