// SecurityHeaders.swift: the headers every response carries (CSP without inline script, no framing, no sniffing).
// A route may set `framingAllowedCSP` instead: then framing is allowed and X-Frame-Options is left out.
import FastCGI

/// Adds the security headers to a response; a header the route already set (a relaxed frame policy later) is kept.
public enum SecurityHeaders {
    public static let values: [(String, String)] = [
        ("Content-Security-Policy",
         "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-store"),
    ]

    /// The policy of the few pages the BrowserID protocol needs framed (communication iframe, provisioning).
    public static let framingAllowedCSP =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors *; base-uri 'none'; object-src 'none'"

    static func apply(to response: inout Response) {
        let framingAllowed = response.header("Content-Security-Policy") == framingAllowedCSP
        for (name, value) in values where response.header(name) == nil {
            if name == "X-Frame-Options" && framingAllowed { continue }
            response.addHeader(name, value)
        }
    }
}
