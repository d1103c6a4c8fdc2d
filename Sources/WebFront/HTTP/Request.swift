// Request.swift: one request as WebFront sees it: method, URI, headers, body, and the two values an operator sets per
// nginx location (the gate's allow rule, the internal-caller mark). Made by the transport's adapter
// (Frontdoor+FastCGI.swift, the one file that knows CGI param names); pages never see the transport.

/// A request. A value, cheap to copy: the header storage is the transport's own, shared and never copied.
public struct Request: Sendable {
    /// The method, upper-cased; GET when the web server sent none.
    public let method: String
    /// The request URI (path and query, still percent-encoded).
    public let uri: String
    /// The URI before `?`, still percent-encoded.
    public let path: String
    /// The query string without `?`; "" when there is none.
    public let query: String
    /// The body's Content-Type, if any.
    public let contentType: String?
    /// The client as the web server saw it (see `RequestContext.clientAddress` for trusted proxies).
    public let remoteAddress: String?
    /// The request came over https.
    public let isHTTPS: Bool
    /// The location's allow rule for the gate (nginx `fastcgi_param FRONTDOOR_ALLOW`); nil when the location sets none.
    /// See Gate and GateRule.
    public let gateRule: String?
    /// nginx marks the location as an operator's internal one (`fastcgi_param FRONTDOOR_INTERNAL 1`).
    public let isInternal: Bool
    /// The body; empty when `bodyTooLarge`.
    public var body: [UInt8]
    /// The body was longer than the server accepts, and was dropped.
    public var bodyTooLarge: Bool
    /// nginx's `$request_id` (`fastcgi_param FRONTDOOR_REQUEST_ID`), for the log lines (see RequestLog); nil: made here.
    public var requestId: String?
    /// What the location's gate demands of a session beyond the allow rule (`fastcgi_param FRONTDOOR_REQUIRE`, e.g.
    /// `2fa`); nil when the location sets none. See Gate.
    public var gateRequirement: String?
    private let headers: any RequestHeaders

    init(method: String, uri: String, path: String, query: String, contentType: String?, remoteAddress: String?, isHTTPS: Bool,
         gateRule: String?, isInternal: Bool, body: [UInt8], bodyTooLarge: Bool, headers: any RequestHeaders) {
        self.method = method
        self.uri = uri
        self.path = path
        self.query = query
        self.contentType = contentType
        self.remoteAddress = remoteAddress
        self.isHTTPS = isHTTPS
        self.gateRule = gateRule
        self.isInternal = isInternal
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.headers = headers
    }

    /// A request header by its HTTP name, case-insensitive ("Cookie", "Accept-Language").
    public func header(_ name: String) -> String? { headers.value(named: name) }
}

/// Where a request's headers are looked up: the transport's storage as it arrived (see Frontdoor+FastCGI.swift).
protocol RequestHeaders: Sendable {
    /// The value of header `name` (case-insensitive); nil when absent.
    func value(named name: String) -> String?
}
