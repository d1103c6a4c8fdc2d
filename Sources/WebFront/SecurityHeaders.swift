// SecurityHeaders.swift: the headers every response carries (CSP without inline script, no framing, no sniffing).
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

    static func apply(to response: inout Response) {
        for (name, value) in values where response.header(name) == nil {
            response.addHeader(name, value)
        }
    }
}
