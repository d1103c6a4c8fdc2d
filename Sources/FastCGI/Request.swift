// Request.swift: one request as the web server passed it (FastCGI params or CGI environment) plus its body.

/// A request: every param as given, the body, and the few derived values an application needs.
public struct Request: Sendable {
    /// Every FastCGI/CGI param (REQUEST_METHOD, REQUEST_URI, HTTP_COOKIE, …).
    public var params: Params
    /// The body; empty when `bodyTooLarge`.
    public var body: [UInt8]
    /// CONTENT_LENGTH exceeded the server's limit: the body was read and dropped.
    public var bodyTooLarge: Bool

    /// A request from its params and body, as the server (or a test) builds it.
    public init(params: [String: String], body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.init(params: Params(params), body: body, bodyTooLarge: bodyTooLarge)
    }

    /// A request from params as the server read them.
    public init(params: Params, body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.params = params
        self.body = body
        self.bodyTooLarge = bodyTooLarge
    }

    /// REQUEST_METHOD upper-cased; GET when missing.
    public var method: String { (params["REQUEST_METHOD"] ?? "GET").uppercased() }

    /// REQUEST_URI; for servers that don't send it, SCRIPT_NAME + PATH_INFO (+ ?QUERY_STRING).
    public var uri: String {
        if let uri = params["REQUEST_URI"], !uri.isEmpty { return uri }
        let path = (params["SCRIPT_NAME"] ?? "") + (params["PATH_INFO"] ?? "")
        let query = params["QUERY_STRING"] ?? ""
        return (path.isEmpty ? "/" : path) + (query.isEmpty ? "" : "?" + query)
    }

    /// The URI before `?`, still percent-encoded.
    public var path: String {
        let uri = uri
        guard let question = uri.utf8.firstIndex(of: UInt8(ascii: "?")) else { return uri }
        return String(uri[..<question])
    }

    /// QUERY_STRING, else the URI after `?`, else "".
    public var query: String {
        if let query = params["QUERY_STRING"] { return query }
        let uri = uri
        guard let question = uri.utf8.firstIndex(of: UInt8(ascii: "?")) else { return "" }
        return String(uri[uri.utf8.index(after: question)...])
    }

    /// A request header by its HTTP name, case-insensitive ("Cookie" reads HTTP_COOKIE; Content-Type and
    /// Content-Length read CONTENT_TYPE and CONTENT_LENGTH, which CGI passes without the HTTP_ prefix).
    public func header(_ name: String) -> String? {
        // Upper-cased with - as _, byte by byte, and looked up without making the param's name (this runs several
        // times a request).
        var key = [UInt8](name.utf8)
        for index in key.indices {
            let byte = key[index]
            key[index] = byte == UInt8(ascii: "-") ? UInt8(ascii: "_") : (byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
        }
        if key.elementsEqual("CONTENT_TYPE".utf8) || key.elementsEqual("CONTENT_LENGTH".utf8) {
            return key.withUnsafeBufferPointer { params.value(prefix: "", name: $0) }
        }
        return key.withUnsafeBufferPointer { params.value(prefix: "HTTP_", name: $0) }
    }

    /// CONTENT_TYPE.
    public var contentType: String? { params["CONTENT_TYPE"] }

    /// REMOTE_ADDR: the client as the web server saw it.
    public var remoteAddress: String? { params["REMOTE_ADDR"] }

    /// True when the request came over https (HTTPS is "on" or "1", or REQUEST_SCHEME is https).
    public var isHTTPS: Bool {
        let https = params["HTTPS"]?.lowercased()
        return https == "on" || https == "1" || params["REQUEST_SCHEME"]?.lowercased() == "https"
    }
}
