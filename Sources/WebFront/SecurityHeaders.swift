// SecurityHeaders.swift: the headers every response carries (CSP without inline script, no framing, no sniffing).
// A route may set `framingAllowedCSP` instead: then framing is allowed and X-Frame-Options is left out.
// With social sign-in providers, `form-action` also names their authorization endpoints' origins: browsers apply
// form-action to the redirect that follows a form, and the provider buttons post to `auth/<id>`, which redirects there.
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

    /// `values`, with `formActions` (origins such as `https://github.com`) added to the policy's form-action.
    static func values(formActions: [String]) -> [(String, String)] {
        guard !formActions.isEmpty else { return values }
        let extra = " " + formActions.joined(separator: " ")
        return values.map { name, value in
            (name, name == "Content-Security-Policy" ? value.replacingOccurrences(of: "form-action 'self'", with: "form-action 'self'" + extra) : value)
        }
    }

    static func apply(to response: inout Response, values: [(String, String)] = values) {
        let framingAllowed = response.header("Content-Security-Policy") == framingAllowedCSP
        for (name, value) in values where response.header(name) == nil {
            if name == "X-Frame-Options" && framingAllowed { continue }
            response.addHeader(name, value)
        }
    }
}
