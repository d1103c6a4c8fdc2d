// PushedAuthorizationEndpoint.swift: `POST <base>/oidc/par`, pushed authorization requests (RFC 9126): a client posts
// its authorization parameters over the back channel, authenticated as at the token endpoint (ClientAuthentication:
// client_secret_basic, client_secret_post, or a public client's client_id alone), and sends the browser to the
// authorize endpoint with only `client_id` and the `request_uri` it gets back.
//
// Options: `oidc.pushed_request_lifetime` (the `expires_in`). The parameters are checked as the authorize endpoint
// checks them (OpenIDAuthorizationRequest), so a bad request is refused here, as JSON (RFC 9126 2.3): 400
// invalid_request (redirect_uri not registered, a `request_uri` pushed), or the authorize endpoint's own error code;
// 401 invalid_client (OpenIDEndpointError). Answers 201 {"request_uri", "expires_in"}; every answer `Cache-Control: no-store`.
import AccountCore
import Foundation

struct PushedAuthorizationEndpoint: Sendable {
    // Core operations this endpoint uses, given in Routes.table.
    let grants: OpenIDGrants
    let clients: OpenIDClients
    init(_ core: AccountServices) { (grants, clients) = (core.openID, core.openIDClients) }

    func submit(_ context: RequestContext) throws -> Response {
        try ClientAuthentication.endpoint(context, clients: clients) { _, client, _ in
            var parameters = context.form.filter { $0.key != "client_secret" }
            guard parameters["request_uri"] == nil else { throw OpenIDEndpointError.invalidRequest("request_uri cannot be pushed") }
            parameters["client_id"] = client.id
            switch try OpenIDAuthorizationRequest.parse(parameters, client: { $0 == client.id ? client : nil }, pushed: { _, _ in nil }) {
            case .page(let key):
                throw OpenIDEndpointError.invalidRequest(key == "oidc_error_redirect_uri" ? "redirect_uri is not registered" : "redirect_uri is missing")
            case .refused(_, _, _, let error, let description):
                throw OpenIDEndpointError.badRequest(error, description)
            case .request:
                let pushed = try grants.pushRequest(client: client, parameters: parameters)
                var response = Response.json(["request_uri": pushed.requestURI, "expires_in": pushed.expiresIn], status: 201)
                OpenIDEndpointError.noStore(&response)
                return response
            }
        }
    }
}
