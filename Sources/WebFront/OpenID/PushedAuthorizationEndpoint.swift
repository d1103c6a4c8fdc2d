// PushedAuthorizationEndpoint.swift: `POST <base>/oidc/par`, pushed authorization requests (RFC 9126): a client posts
// its authorization parameters over the back channel, authenticated as at the token endpoint (client_secret_basic,
// client_secret_post, or a public client's client_id alone), and sends the browser to the authorize endpoint with
// only `client_id` and the `request_uri` it gets back.
//
// Options: `oidc.pushed_request_lifetime` (the `expires_in`). The parameters are checked as the authorize endpoint
// checks them (OpenIDAuthorizationRequest), so a bad request is refused here, as JSON (RFC 9126 2.3): 400
// invalid_request (redirect_uri not registered, a `request_uri` pushed), or the authorize endpoint's own error code;
// 401 invalid_client (with `WWW-Authenticate: Basic` when Basic was tried). Answers 201 {"request_uri", "expires_in"};
// every answer `Cache-Control: no-store`.
// DUPLICATE for the coordinator: `credentials` below is a minimal client authentication written before the tokens
// helper's ClientAuthentication.swift was committed; once both are merged, use that one here and drop this.
import AccountCore
import Foundation

struct PushedAuthorizationEndpoint: Sendable {
    // Core operations this endpoint uses, given in Routes.table.
    let grants: OpenIDGrants
    let clients: OpenIDClients
    init(_ core: AccountServices) { (grants, clients) = (core.openID, core.openIDClients) }

    func submit(_ context: RequestContext) throws -> Response {
        guard context.site.openID != nil else { throw HTTPError.notFound }
        let basic = context.request.header("Authorization")?.lowercased().hasPrefix("basic ") == true
        guard let client = try authenticate(context) else {
            context.site.logger.info("oidc client refused", metadata: ["endpoint": "par"])
            return answer(["error": "invalid_client", "error_description": "client authentication failed"], status: 401,
                          headers: basic ? ["WWW-Authenticate": "Basic realm=\"frontdoor\""] : [:])
        }
        var parameters = context.form.filter { $0.key != "client_secret" }
        guard parameters["request_uri"] == nil else { return refusal("invalid_request", "request_uri cannot be pushed") }
        parameters["client_id"] = client.id
        switch try OpenIDAuthorizationRequest.parse(parameters, client: { $0 == client.id ? client : nil }, pushed: { _, _ in nil }) {
        case .page(let key):
            return refusal("invalid_request", key == "oidc_error_redirect_uri" ? "redirect_uri is not registered" : "redirect_uri is missing")
        case .refused(_, _, _, let error, let description):
            return refusal(error, description)
        case .request:
            let pushed = try grants.pushRequest(client: client, parameters: parameters)
            return answer(["request_uri": pushed.requestURI, "expires_in": pushed.expiresIn], status: 201)
        }
    }

    /// The client the request proves to be: HTTP Basic (RFC 6749 2.3.1, each half form-urlencoded), or `client_id`
    /// and `client_secret` in the form, or a public client's `client_id` alone; nil for anything else.
    private func authenticate(_ context: RequestContext) throws -> OpenIDClient? {
        var id = context.form["client_id"], secret = context.form["client_secret"]
        if let header = context.request.header("Authorization"), header.lowercased().hasPrefix("basic ") {
            guard secret == nil, let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                  let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
            let basicID = FormData.decode(Array(text[..<colon].utf8)), basicSecret = FormData.decode(Array(text[text.index(after: colon)...].utf8))
            guard id == nil || id == basicID else { return nil }
            (id, secret) = (basicID, basicSecret)
        }
        guard let id, OpenIDClientsConfig.isValidID(id), let client = try clients.client(id) else { return nil }
        if client.isPublic { return secret == nil ? client : nil }
        return secret.map(client.acceptsSecret) == true ? client : nil
    }

    private func refusal(_ error: String, _ description: String) -> Response {
        answer(["error": error, "error_description": description], status: 400)
    }

    private func answer(_ body: [String: Any], status: Int, headers: [String: String] = [:]) -> Response {
        var response = Response.json(body, status: status)
        response.setHeader("Cache-Control", "no-store")
        response.setHeader("Pragma", "no-cache")
        for (name, value) in headers { response.setHeader(name, value) }
        return response
    }
}
