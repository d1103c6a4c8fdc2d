// ClientAuthentication.swift: who is asking at the token, introspection, revocation and device authorization
// endpoints: a registered client, proved by one of three methods (the discovery document's
// `token_endpoint_auth_methods_supported`):
//   client_secret_basic   `Authorization: Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 2.3.1: each half
//                         form-urlencoded before joining, so an id or secret may hold a colon)
//   client_secret_post    `client_id` and `client_secret` in the form body
//   none                  `client_id` alone, for a public client (native apps, SPAs: RFC 8252); the code it redeems
//                         must then carry PKCE, which OpenIDGrants.redeemCode checks
// Exactly one method per request (RFC 6749 2.3): a secret both in the header and in the body is refused, and so is a
// body `client_id` naming another client than the header. A confidential client must present its secret; a public
// client has none to present (one sent is refused, not ignored). `client_assertion` (private_key_jwt) is not offered.
// Every failure answers the same 401 invalid_client (an unknown id and a wrong secret cannot be told apart), with
// `WWW-Authenticate: Basic` when Basic was tried; the log says which it was. Secrets are compared by the client
// (`OpenIDClient.acceptsSecret`: SHA-256 digests, constant time).
import AccountCore
import Encodings
import Foundation
import Logging

/// What a request presents as its client's credentials, before any lookup.
struct ClientCredentials: Equatable, Sendable {
    enum Method: String, Sendable { case basic = "client_secret_basic", post = "client_secret_post", none }
    var id: String
    var secret: String?
    var method: Method

    /// The credentials of a request: its Authorization header (Basic only; another scheme is not a client's) and its
    /// form body. Throws 400 invalid_request for a malformed or doubled presentation, 401 invalid_client when none.
    static func read(authorization: String?, form: [String: String], realm: String) throws -> ClientCredentials {
        if form["client_assertion"] != nil || form["client_assertion_type"] != nil {
            throw OpenIDEndpointError.invalidClient(basic: false, realm: realm)   // private_key_jwt is not offered
        }
        if let header = authorization, let basic = try basic(header, realm: realm) {
            guard form["client_secret"] == nil else {
                throw OpenIDEndpointError.invalidRequest("use one client authentication method, not two")
            }
            if let bodyID = form["client_id"], bodyID != basic.id {
                throw OpenIDEndpointError.invalidRequest("client_id differs from the authenticated client")
            }
            return basic
        }
        guard let id = form["client_id"], !id.isEmpty else { throw OpenIDEndpointError.invalidClient(basic: false, realm: realm) }
        if let secret = form["client_secret"] { return ClientCredentials(id: id, secret: secret, method: .post) }
        return ClientCredentials(id: id, secret: nil, method: .none)
    }

    /// The id and secret of a `Basic` header; nil for another scheme. A Basic header that does not decode to
    /// `id:secret` is a failed authentication (401 with the Basic challenge).
    static func basic(_ header: String, realm: String) throws -> ClientCredentials? {
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count >= 1, parts[0].lowercased() == "basic" else { return nil }
        let refused = OpenIDEndpointError.invalidClient(basic: true, realm: realm)
        guard parts.count == 2, let bytes = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
              let text = String(data: bytes, encoding: .utf8), let colon = text.firstIndex(of: ":") else { throw refused }
        let id = FormData.decode(Array(text[..<colon].utf8)), secret = FormData.decode(Array(text[text.index(after: colon)...].utf8))
        guard !id.isEmpty else { throw refused }
        return ClientCredentials(id: id, secret: secret, method: .basic)
    }
}

/// Authenticates the client of a back-channel request against the registered clients.
struct ClientAuthentication {
    let clients: OpenIDClients
    let realm: String
    let logger: Logger

    /// The client `context`'s request proves to be, and how; 401 invalid_client otherwise (see the file's header).
    func authenticate(_ context: RequestContext) throws -> (client: OpenIDClient, method: ClientCredentials.Method) {
        let credentials = try ClientCredentials.read(authorization: context.request.header("Authorization"), form: context.form, realm: realm)
        let refused = OpenIDEndpointError.invalidClient(basic: credentials.method == .basic, realm: realm)
        guard let client = try clients.client(credentials.id) else {
            logger.info("oidc client refused", metadata: ["client": "\(credentials.id)", "reason": "unknown client"])
            throw refused
        }
        switch (client.isPublic, credentials.secret) {
        case (true, nil):
            return (client, .none)
        case (false, let secret?) where client.acceptsSecret(secret):
            return (client, credentials.method)
        case (true, _?):
            logger.info("oidc client refused", metadata: ["client": "\(client.id)", "reason": "a public client sent a secret"])
        case (false, nil):
            logger.info("oidc client refused", metadata: ["client": "\(client.id)", "reason": "no secret"])
        case (false, _?):
            logger.info("oidc client refused", metadata: ["client": "\(client.id)", "reason": "wrong secret"])
        }
        throw refused
    }
}

extension ClientAuthentication {
    /// What every client-authenticated endpoint (token, introspection, revocation, device authorization, pushed
    /// requests) does first and last: 404 with the provider off; a form POST; the client proved as above; then
    /// `answer`, whose refusal (an `OpenIDEndpointError`) becomes its RFC 6749 JSON answer, never cached.
    static func endpoint(_ context: RequestContext, clients: OpenIDClients,
                         _ answer: (OpenIDServices, OpenIDClient, ClientCredentials.Method) throws -> Response) throws -> Response {
        guard let services = context.site.openID else { throw HTTPError.notFound }
        do {
            try OpenIDForm.require(context)
            let (client, method) = try ClientAuthentication(clients: clients, realm: services.issuer, logger: context.site.logger)
                .authenticate(context)
            return try answer(services, client, method)
        } catch let refusal as OpenIDEndpointError {
            return refusal.response
        }
    }
}
