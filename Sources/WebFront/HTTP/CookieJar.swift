// CookieJar.swift: one request's cookies: those the browser sent, by name, and those the response sets.
//
// Options: `session.secure_cookie` (Secure always, or only on https requests; the context passes the outcome in).
// Every cookie set here is under the base path unless queued with its own (the session cookie), and HttpOnly and
// SameSite=Lax (see SetCookie). A cookie queued twice is sent once, with the last value.

/// The cookies of one request: read what came in, queue what goes out.
public final class CookieJar {
    private let header: String?
    private let path: String
    private let secure: Bool
    private lazy var incoming: [String: String] = CookieHeader.parse(header)
    /// The cookies to send with the response, in the order first set.
    public private(set) var outgoing: [SetCookie] = []

    /// - Parameters: the request's Cookie header; the path cookies are set under; whether they get Secure.
    init(header: String?, path: String, secure: Bool) {
        self.header = header
        self.path = path
        self.secure = secure
    }

    /// The value the browser sent under `name`.
    public subscript(name: String) -> String? { incoming[name] }

    /// The value this response sets for `name`, if it sets one.
    func queued(_ name: String) -> String? { outgoing.last { $0.name == name }?.value }

    /// Sets a cookie under the base path (`maxAge` nil: until the browser closes; 0: removed).
    public func set(_ name: String, _ value: String, maxAge: Int? = nil) {
        queue(SetCookie(name: name, value: value, path: path, maxAge: maxAge, secure: false))
    }

    /// Sets `cookie` as given, with this request's Secure rule, replacing one of the same name set before.
    func queue(_ cookie: SetCookie) {
        var cookie = cookie
        cookie.secure = secure
        outgoing.removeAll { $0.name == cookie.name }
        outgoing.append(cookie)
    }
}
