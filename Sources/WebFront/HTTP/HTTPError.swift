// HTTPError.swift: errors that know their HTTP status and the catalog message a person sees.

/// An error page: the status and the catalog key of its message. `Frontdoor.respond` turns it into a response.
public struct HTTPError: Error, Equatable, Sendable {
    public var status: Int
    public var messageKey: String
    /// Extra headers (e.g. `Allow` with 405).
    public var headers: [String: String]

    public init(status: Int, messageKey: String, headers: [String: String] = [:]) {
        self.status = status
        self.messageKey = messageKey
        self.headers = headers
    }

    public static let notFound = HTTPError(status: 404, messageKey: "error_not_found")
    public static let forbiddenCSRF = HTTPError(status: 403, messageKey: "error_forbidden_csrf")
    public static let payloadTooLarge = HTTPError(status: 413, messageKey: "error_payload_too_large")
    public static let badRequest = HTTPError(status: 400, messageKey: "error_bad_request")
    /// The database cannot take changes now (full, I/O error, lock timeout); nothing was written.
    public static let storageUnavailable = HTTPError(status: 503, messageKey: "error_unavailable", headers: ["Retry-After": "60"])

    /// Not an error page: a redirect (302, or 303 after a POST) that a page throws to send the person elsewhere first
    /// (to sign in, or to enter the password again). `Frontdoor.respond` answers it without a body.
    public static func redirect(to location: String, afterPost: Bool) -> HTTPError {
        HTTPError(status: afterPost ? 303 : 302, messageKey: "", headers: ["Location": location])
    }

    /// True for `redirect(to:afterPost:)`.
    public var isRedirect: Bool { (300..<400).contains(status) }

    /// 405 naming the methods the route takes.
    public static func methodNotAllowed(_ allowed: [String]) -> HTTPError {
        HTTPError(status: 405, messageKey: "error_method_not_allowed", headers: ["Allow": allowed.joined(separator: ", ")])
    }
}
