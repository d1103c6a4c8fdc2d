// DeviceAuthorizationEndpoint.swift: `POST <base>/oidc/device_authorization` (RFC 8628 3.1, 3.2): a device without a
// browser (a CLI, a TV) asks for a code a person types at `<issuer>/device` (DevicePage).
//
// Form: `client_id` (with the secret, Basic or in the body, for a confidential client: ClientAuthentication), `scope`
// (space-separated; default: every scope the client may ask; one beyond them → 400 invalid_scope). Answers 200
// {device_code, user_code (`XXXX-XXXX`), verification_uri (`<issuer>/device`), verification_uri_complete (with
// `?user_code=`), expires_in, interval}, Cache-Control: no-store; the device then polls the token endpoint with
// grant_type `urn:ietf:params:oauth:grant-type:device_code`. Options: `oidc.device_code_lifetime`,
// `oidc.device_poll_interval` (the core's).
import AccountCore
import Foundation

/// The device authorization endpoint.
struct DeviceAuthorizationEndpoint: Sendable {
    // Core operations this endpoint uses, given in Routes.openIDTokens.
    let core: AccountServices
    init(_ core: AccountServices) { self.core = core }

    func submit(_ context: RequestContext) throws -> Response {
        try ClientAuthentication.endpoint(context, clients: core.openIDClients) { services, client, _ in
            do {
                let scopes = context.form["scope"].map(OpenIDForm.scopes) ?? client.scopes
                guard !scopes.isEmpty, scopes.allSatisfy(client.scopes.contains) else {
                    throw OpenIDEndpointError.badRequest("invalid_scope", "the client may not ask that scope")
                }
                let started = try core.openID.startDevice(client: client, scopes: scopes)
                let verification = services.issuer + "/device"
                var response = Response.json([
                    "device_code": started.deviceCode, "user_code": started.userCode, "verification_uri": verification,
                    "verification_uri_complete": verification + "?user_code=" + FormData.encode(started.userCode),
                    "expires_in": started.expiresIn, "interval": started.interval,
                ])
                OpenIDEndpointError.noStore(&response)
                return response
            } catch let error as OpenIDError {
                throw OpenIDEndpointError.from(error, basic: false, realm: services.issuer)
            }
        }
    }
}
