// SitePaths.swift: every URL the app emits, built from the configured base path.

/// Builds links, form actions and redirects under the base path (`/account` by default).
public struct SitePaths: Sendable, Equatable {
    /// The base path without a trailing slash (`""` when mounted at the root).
    public let base: String

    public init(base: String) {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
    }

    /// `route` under the base: `path("sign_in")` → `/account/sign_in`; `path("")` → `/account/`.
    public func path(_ route: String) -> String { base + "/" + route }

    /// The signed-in home page.
    public var home: String { path("") }

    /// The sign-in page, carrying `returnTo` in `rd` when given.
    /// The sign-in path, carrying `returnTo` as `rd` unless it is longer than `maximumReturnLength` once encoded:
    /// then sign-in returns home, rather than sending a Location header too big for the web server's buffers.
    public func signIn(returnTo: String? = nil) -> String {
        guard let returnTo else { return path("sign_in") }
        let encoded = FormData.encode(returnTo)
        guard encoded.utf8.count <= Self.maximumReturnLength else { return path("sign_in") }
        return path("sign_in") + "?rd=" + encoded
    }

    /// The longest encoded return target a redirect carries (nginx's fastcgi_buffer_size is 4 KiB for all headers).
    public static let maximumReturnLength = 2048

    /// Cookie path: the base, or `/` at the root.
    public var cookiePath: String { base.isEmpty ? "/" : base }

    /// The route a request path names, relative to the base (`/account/sign_in` → `sign_in`, `/account` → ``),
    /// or nil when the path is outside the base. A trailing slash is ignored.
    public func route(forRequestPath requestPath: String) -> String? {
        // By byte (the path is percent-encoded ASCII as the web server passed it): every request asks this, and
        // Character-wise prefix and suffix checks cost ~5 k instructions.
        let utf8 = requestPath.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        if !base.isEmpty {
            guard utf8.starts(with: base.utf8) else { return nil }
            start = utf8.index(start, offsetBy: base.utf8.count)
            guard start == end || utf8[start] == UInt8(ascii: "/") else { return nil }
        }
        while start < end, utf8[start] == UInt8(ascii: "/") { start = utf8.index(after: start) }
        while end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        return String(Substring(utf8[start..<end]))
    }
}
