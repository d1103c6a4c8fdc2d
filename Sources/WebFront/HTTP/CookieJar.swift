// CookieJar.swift: one request's cookies: those the browser sent, by name, and those the response sets.
//
// Options: `session.secure_cookie` (Secure always, or only on https requests; the context passes the outcome in).
// Every cookie set here is under the base path unless queued with its own (the session cookie) or host-bound, and HttpOnly and
// SameSite=Lax (see SetCookie). A cookie queued twice is sent once, with the last value.
//
// Host-bound cookies (the CSRF and social bindings, the waiting accounts, and the session cookie unless
// `session.cookie_domain` shares it; see `hostBound`): a sibling subdomain can set a cookie for this
// host's name (`Domain=` the parent) with a longer Path, which the browser then sends first. When cookies are Secure
// (over https, or session.secure_cookie: always) they are named `__Host-<name>` with Path=/, no Domain and Secure,
// which browsers accept only from this very host, and the plain name is not read; over plain http (development) they
// keep their name and the base path. Either way a name the browser sent twice is read as absent: one of the two was
// set by someone else, and which one cannot be told.

/// The cookies of one request: read what came in, queue what goes out.
public final class CookieJar {
    private let header: String?
    private let path: String
    private let secure: Bool
    private lazy var incoming: [String: String] = CookieHeader.parse(header)
    private lazy var repeated: Set<String> = CookieHeader.repeatedNames(header)
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

    /// The name a host-bound cookie goes by in this request: `__Host-<name>` when cookies are Secure, else `name`.
    func hostBound(_ name: String) -> String { secure ? "__Host-" + name : name }

    /// The value the browser sent under `name`: nil when absent or sent twice (one of the two was set by someone else).
    func single(_ name: String) -> String? { repeated.contains(name) ? nil : incoming[name] }

    /// The host-bound cookie `name` as the browser sent it: nil when absent or sent twice.
    func hostBoundValue(_ name: String) -> String? { single(hostBound(name)) }

    /// The host-bound cookie `name` this response sets, if it sets one.
    func queuedHostBound(_ name: String) -> String? { queued(hostBound(name)) }

    /// Sets the host-bound cookie `name` (see the header; `maxAge` as in `set`).
    func setHostBound(_ name: String, _ value: String, maxAge: Int? = nil) {
        queue(SetCookie(name: hostBound(name), value: value, path: secure ? "/" : path, maxAge: maxAge, secure: secure))
    }

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
