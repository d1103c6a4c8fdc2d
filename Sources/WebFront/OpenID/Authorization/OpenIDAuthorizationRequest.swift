// OpenIDAuthorizationRequest.swift: an authorization request's parameters, checked (OpenID Connect Core 3.1.2.1,
// RFC 6749 4.1.1, RFC 7636, RFC 9126), for the authorize endpoint, the consent page and the PAR endpoint alike.
//
// Parameters read: client_id, redirect_uri (exact match against the client's; OpenIDClient.allowsRedirect), response_type (`code` only), scope
// (must hold openid; scopes not understood or not the client's are dropped, as Core 3.1.2.1 says), state, nonce,
// code_challenge + code_challenge_method (S256 only; required for public clients), prompt (none | login | consent |
// select_account; none alone), max_age, login_hint, id_token_hint, acr_values (urn:frontdoor:2fa, mfa or PAPE's multi-factor ask for a
// second factor), response_mode (query only), request_uri (a pushed request: its parameters replace these).
// Refused as the spec says: `request` (request_not_supported), `registration` (registration_not_supported).
// Frontdoor's own markers ride along on the way back from its pages: `fd_login_after` (prompt=login: the sign-in must
// be newer than this second) and `fd_account_chosen` (prompt=select_account answered).
// Until the client and the redirect URI are known good, every failure is an error page (`Parsed.page`); after, an
// error for the redirect URI (`Parsed.refused`).
import AccountCore
import Foundation

/// A checked authorization request.
struct OpenIDAuthorizationRequest {
    /// What parsing found: a request to go on with; an error page (client or redirect URI not known good); or an
    /// error for the client's redirect URI (`location` is where to send it, state and issuer added by the caller).
    enum Parsed {
        case request(OpenIDAuthorizationRequest)
        case page(messageKey: String)
        case refused(client: OpenIDClient, redirectURI: String, state: String?, error: String, description: String)
    }

    /// A refusal to send back to the client.
    struct Failure: Error, Equatable {
        let error: String
        let description: String
    }

    /// Values of `acr_values` that ask for a second factor.
    static let secondFactorACRs: Set<String> = ["urn:frontdoor:2fa", "mfa", "http://schemas.openid.net/pape/policies/2007/06/multi-factor"]
    static let knownPrompts: Set<String> = ["none", "login", "consent", "select_account"]
    /// Frontdoor's own parameters, kept on the way back through its pages.
    static let markers = ["fd_login_after", "fd_account_chosen"]

    let client: OpenIDClient
    let redirectURI: String
    let state: String?
    let scopes: [String]
    let nonce: String?
    let codeChallenge: String?
    let prompts: Set<String>
    let maxAge: Int?
    let loginHint: String?
    /// `id_token_hint`: an ID token the client holds (with prompt=none, the session must be its subject's).
    let idTokenHint: String?
    let wantsSecondFactor: Bool
    /// The pushed request this came from (used up when the code is issued).
    let requestURI: String?
    /// The parameters as the browser sent them (for PAR: client_id and request_uri), markers included: what the way
    /// back to the authorize endpoint carries.
    let sent: [String: String]

    var loginAfter: Date? { sent["fd_login_after"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) } }
    var accountChosen: Bool { sent["fd_account_chosen"] == "1" }

    /// The first part: which client, which redirect URI. `client` finds a client by id; `pushed` the parameters of a
    /// pushed request by URI and client id.
    static func parse(_ sent: [String: String], client lookup: (String) throws -> OpenIDClient?,
                      pushed: (String, String) throws -> [String: String]?) throws -> Parsed {
        var parameters = sent.filter { !markers.contains($0.key) && $0.key != "csrf_token" && $0.key != "decision" }
        guard let clientID = parameters["client_id"], !clientID.isEmpty else { return .page(messageKey: "oidc_error_no_client") }
        guard OpenIDClientsConfig.isValidID(clientID), let client = try lookup(clientID) else {
            return .page(messageKey: "oidc_error_unknown_client")
        }
        var requestURI: String?
        if let uri = parameters["request_uri"] {
            guard let found = try pushed(uri, clientID), found["client_id"] == nil || found["client_id"] == clientID else {
                return .page(messageKey: "oidc_error_request_uri")
            }
            parameters = found.filter { !markers.contains($0.key) && $0.key != "request_uri" }
            parameters["client_id"] = clientID
            requestURI = uri
        }
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else {
            return .page(messageKey: "oidc_error_no_redirect_uri")
        }
        guard client.allowsRedirect(redirectURI) else { return .page(messageKey: "oidc_error_redirect_uri") }
        let state = parameters["state"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            return .request(try checked(parameters, sent: sent, client: client, redirectURI: redirectURI, state: state, requestURI: requestURI))
        } catch let failure as Failure {
            return .refused(client: client, redirectURI: redirectURI, state: state.flatMap { $0.utf8.count <= 2048 ? $0 : nil },
                            error: failure.error, description: failure.description)
        }
    }

    /// The rest, once the redirect URI is known good: every failure goes back to the client.
    private static func checked(_ p: [String: String], sent: [String: String], client: OpenIDClient, redirectURI: String, state: String?,
                                requestURI: String?) throws -> OpenIDAuthorizationRequest {
        func refuse(_ error: String, _ description: String) -> Failure { Failure(error: error, description: description) }
        if p["request"] != nil { throw refuse("request_not_supported", "request objects are not supported; use PAR (request_uri)") }
        if p["registration"] != nil { throw refuse("registration_not_supported", "registration is not supported") }
        guard let type = p["response_type"], !type.isEmpty else { throw refuse("invalid_request", "response_type is missing") }
        guard type == "code" else { throw refuse("unsupported_response_type", "only response_type=code is supported") }
        if let mode = p["response_mode"], mode != "query" { throw refuse("invalid_request", "only response_mode=query is supported") }
        if let state, state.utf8.count > 2048 { throw refuse("invalid_request", "state is longer than 2048 bytes") }
        let asked = (p["scope"] ?? "").split(separator: " ").map(String.init)
        guard asked.contains("openid") else { throw refuse("invalid_scope", "scope must include openid") }
        var scopes: [String] = []
        for scope in asked where client.scopes.contains(scope) && !scopes.contains(scope) { scopes.append(scope) }
        let nonce = p["nonce"].flatMap { $0.isEmpty ? nil : $0 }
        if let nonce, nonce.utf8.count > 512 { throw refuse("invalid_request", "nonce is longer than 512 bytes") }
        let challenge = p["code_challenge"].flatMap { $0.isEmpty ? nil : $0 }
        let method = p["code_challenge_method"].flatMap { $0.isEmpty ? nil : $0 }
        if let method, method != "S256" { throw refuse("invalid_request", "code_challenge_method must be S256") }
        if let challenge {
            guard method == "S256" else { throw refuse("invalid_request", "code_challenge_method must be S256 (plain is refused)") }
            guard challenge.utf8.count == 43, challenge.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw refuse("invalid_request", "code_challenge must be BASE64URL(SHA256(code_verifier))")
            }
        } else if method != nil {
            throw refuse("invalid_request", "code_challenge is missing")
        } else if client.isPublic {
            throw refuse("invalid_request", "a public client must send code_challenge (PKCE, S256)")
        }
        let prompts = Set((p["prompt"] ?? "").split(separator: " ").map(String.init)).intersection(knownPrompts)
        if prompts.contains("none"), prompts.count > 1 { throw refuse("invalid_request", "prompt=none cannot be combined with other values") }
        var maxAge: Int?
        if let text = p["max_age"], !text.isEmpty {
            guard let value = Int(text), value >= 0 else { throw refuse("invalid_request", "max_age must be a whole number of seconds") }
            maxAge = value
        }
        let hint = p["login_hint"].flatMap { $0.isEmpty || $0.utf8.count > 254 || $0.contains(where: \.isNewline) ? nil : $0 }
        let acrs = Set((p["acr_values"] ?? "").split(separator: " ").map(String.init))
        return OpenIDAuthorizationRequest(client: client, redirectURI: redirectURI, state: state, scopes: scopes, nonce: nonce,
                                          codeChallenge: challenge, prompts: prompts, maxAge: maxAge, loginHint: hint,
                                          idTokenHint: p["id_token_hint"].flatMap { $0.isEmpty || $0.utf8.count > 8192 ? nil : $0 },
                                          wantsSecondFactor: !acrs.isDisjoint(with: secondFactorACRs), requestURI: requestURI,
                                          sent: sent.filter { $0.key != "csrf_token" && $0.key != "decision" })
    }

    // MARK: Where to go

    /// `redirectURI` with `parameters` added to its query (in this order).
    static func location(_ redirectURI: String, _ parameters: [(String, String?)]) -> String {
        let query = parameters.compactMap { name, value in value.map { "\(name)=\(FormData.encode($0))" } }.joined(separator: "&")
        return redirectURI + (redirectURI.contains("?") ? "&" : "?") + query
    }

    /// The path of `route` with the sent parameters and `changes` (nil removes one), keys sorted: the way back here.
    func path(_ route: String, paths: SitePaths, changes: [String: String?] = [:]) -> String {
        var parameters = sent
        for (key, value) in changes { parameters[key] = value }
        return paths.path(route) + "?" + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(FormData.encode($0.value))" }.joined(separator: "&")
    }
}
