// TokenEndpoint.swift: `POST <base>/oidc/token` (RFC 6749 3.2, OpenID Connect Core 3.1.3), form-urlencoded only.
//
// The client authenticates first (ClientAuthentication: client_secret_basic, client_secret_post, or none for a public
// client). Grants (`grant_type`):
//   authorization_code                              code, redirect_uri (the authorization request's, exactly),
//                                                   code_verifier (PKCE S256; required when the code has a challenge
//                                                   or the client is public) → OpenIDGrants.redeemCode; a code used
//                                                   twice revokes what it issued
//   refresh_token                                   refresh_token, scope (optional, no wider than granted) →
//                                                   OpenIDGrants.refresh: the token is rotated; the old one used again
//                                                   revokes the whole grant
//   urn:ietf:params:oauth:grant-type:device_code    device_code → OpenIDGrants.pollDevice (RFC 8628 3.4, 3.5):
//                                                   authorization_pending, slow_down, access_denied, expired_token
// Answers 200 {access_token, token_type: "Bearer", expires_in, refresh_token (when issued), id_token (code and device
// grants with the openid scope; refresh with openid), scope} and RFC 6749 5.2 errors (OpenIDEndpointError), all with
// Cache-Control: no-store. The client's allow rule is asked again on every grant with the account as it is now, so a
// person taken out of a group stops getting tokens at the next refresh (invalid_grant).
// Options: `oidc.id_token_lifetime` (the ID token's exp); the other lifetimes are the core's.
import AccountCore
import Foundation

/// The token endpoint.
struct TokenEndpoint: Sendable {
    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

    // Core operations this endpoint uses, given in Routes.openIDTokens.
    let core: AccountServices
    init(_ core: AccountServices) { self.core = core }

    func submit(_ context: RequestContext) throws -> Response {
        try ClientAuthentication.endpoint(context, clients: core.openIDClients) { services, client, method in
            let form = context.form
            do {
                let issued: OpenIDIssued
                var refresh = false
                switch form["grant_type"] ?? "" {
                case "authorization_code":
                    let code = try OpenIDForm.field("code", in: form), redirectURI = try OpenIDForm.field("redirect_uri", in: form)
                    issued = try core.openID.redeemCode(code, client: client, redirectURI: redirectURI, codeVerifier: form["code_verifier"])
                case "refresh_token":
                    let token = try OpenIDForm.field("refresh_token", in: form)
                    let scopes = form["scope"].map(OpenIDForm.scopes)
                    issued = try core.openID.refresh(token, client: client, scopes: scopes)
                    refresh = true
                case Self.deviceGrant:
                    issued = try core.openID.pollDevice(try OpenIDForm.field("device_code", in: form), client: client)
                case "":
                    throw OpenIDEndpointError.invalidRequest("grant_type is missing")
                default:
                    throw OpenIDEndpointError.badRequest("unsupported_grant_type")
                }
                return try answer(issued, client: client, refresh: refresh, services: services, context: context)
            } catch let error as OpenIDError {
                if error != .authorizationPending && error != .slowDown {
                    context.site.logger.info("oidc token refused", metadata: ["client": "\(client.id)", "error": "\(error)"])
                }
                throw OpenIDEndpointError.from(error, basic: method == .basic, realm: services.issuer)
            }
        }
    }

    /// The token answer for `issued`, after asking the client's allow rule of the account as it is now.
    private func answer(_ issued: OpenIDIssued, client: OpenIDClient, refresh: Bool, services: OpenIDServices,
                        context: RequestContext) throws -> Response {
        let grant = issued.grant
        guard let facts = try AccountFacts.read(grant.accountID, core: core), GateRule(client.allow).allows(facts.person) else {
            try core.openID.revoke(issued.refreshToken ?? issued.accessToken, client: client)
            context.site.logger.info("oidc grant ended: the client's rule no longer admits the account",
                                     metadata: ["client": "\(client.id)", "account": "\(grant.accountID)"])
            throw OpenIDEndpointError.badRequest("invalid_grant", "the account may no longer use this client")
        }
        var body: [String: Any] = ["access_token": issued.accessToken, "token_type": "Bearer", "expires_in": issued.expiresIn,
                                   "scope": issued.scopes.joined(separator: " ")]
        if let refreshToken = issued.refreshToken { body["refresh_token"] = refreshToken }
        if issued.scopes.contains("openid") {
            let claims = IDTokenClaims.idToken(grant: grant, scopes: issued.scopes, subject: try core.openID.subject(accountID: grant.accountID, client: client),
                                               issuer: services.issuer, facts: facts, accessToken: issued.accessToken,
                                               now: core.clock.now(), lifetime: services.configuration.idTokenLifetime, refresh: refresh)
            body["id_token"] = try services.keys.sign(claims)
        }
        var response = Response.json(body)
        OpenIDEndpointError.noStore(&response)
        return response
    }
}

/// The form rules every back-channel endpoint shares.
enum OpenIDForm {
    /// A POST of `application/x-www-form-urlencoded`; anything else is invalid_request.
    static func require(_ context: RequestContext) throws {
        guard (context.request.contentType ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") else {
            throw OpenIDEndpointError.invalidRequest("the body must be application/x-www-form-urlencoded")
        }
        if let repeated = repeatedName(context.request.body) {
            throw OpenIDEndpointError.invalidRequest("\(repeated) is given more than once")   // RFC 6749 3.2
        }
    }

    /// The non-empty value of `name`, or invalid_request naming it.
    static func field(_ name: String, in form: [String: String]) throws -> String {
        guard let value = form[name], !value.isEmpty else { throw OpenIDEndpointError.invalidRequest("\(name) is missing") }
        return value
    }

    /// A space-separated scope parameter, as a list without repeats in the order given.
    static func scopes(_ text: String) -> [String] {
        var seen = Set<String>()
        return text.split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
    }

    /// The first parameter name a urlencoded body holds twice, if any (FormData keeps the first and drops the rest).
    static func repeatedName(_ body: [UInt8]) -> String? {
        var seen = Set<String>()
        for pair in body.split(separator: UInt8(ascii: "&")).prefix(FormData.maximumPairs) {
            let name = FormData.decode(pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)[0])
            if !name.isEmpty, !seen.insert(name).inserted { return name }
        }
        return nil
    }
}
