// Frontdoor+FastCGI.swift: where WebFront meets its transport: a FastCGI (or plain CGI) request becomes WebFront's
// Request, and WebFront's Response goes back. The one file of WebFront that imports FastCGI or names a param.
//
// Params read beyond the CGI standard ones (nginx sets them per location; see nginx/snippets/):
//   FRONTDOOR_ALLOW     Request.gateRule (the gate's allow rule; see Gate)
//   FRONTDOOR_INTERNAL  Request.isInternal ("1": an operator's internal location)
//   FRONTDOOR_REQUEST_ID  Request.requestId (nginx's $request_id, for the log; see RequestLog)
//   FRONTDOOR_REQUIRE   Request.gateRequirement (what the gate demands beyond the allow rule: `2fa`; see Gate)
import FastCGI

extension Frontdoor: FastCGI.Responder {
    /// The FastCGI server's entry: the request as WebFront's, the response as the server's (arrays shared, not copied).
    public func respond(to request: FastCGI.Request) -> FastCGI.Response {
        let response = respond(to: Request(request))
        return FastCGI.Response(status: response.status, headers: response.headers, body: response.body)
    }
}

extension Request {
    /// A request from CGI params (RFC 3875 meta-variables, headers as HTTP_*) and its body, as a server or a test has them.
    public init(params: [String: String], body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.init(FastCGI.Request(params: params, body: body, bodyTooLarge: bodyTooLarge))
    }

    /// The server's request, read once: the derived values as FastCGI computes them, the headers left in its storage.
    init(_ request: FastCGI.Request) {
        self.init(method: request.method, uri: request.uri, path: request.path, query: request.query,
                  contentType: request.contentType, remoteAddress: request.remoteAddress, isHTTPS: request.isHTTPS,
                  gateRule: request.params["FRONTDOOR_ALLOW"], isInternal: request.params["FRONTDOOR_INTERNAL"] == "1",
                  body: request.body, bodyTooLarge: request.bodyTooLarge, headers: request)
        requestId = request.params["FRONTDOOR_REQUEST_ID"]
        gateRequirement = request.params["FRONTDOOR_REQUIRE"]
    }
}

/// FastCGI's request answers header lookups from its HTTP_* params, so they are never copied.
extension FastCGI.Request: RequestHeaders {
    func value(named name: String) -> String? { header(name) }
}
