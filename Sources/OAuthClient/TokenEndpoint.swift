// TokenEndpoint.swift: the token endpoint calls (RFC 6749 4.1.3 code exchange with the PKCE code_verifier, 6 refresh).
// Client authentication: basic (Authorization: Basic of the form-encoded id and secret, RFC 6749 2.3.1) or post
// (client_id and client_secret in the body). Every request says Accept: application/json (GitHub answers form data
// otherwise). Answer: a JSON object with access_token; `error` (also in a 200, as GitHub does) → OAuthError.provider;
// another non-2xx → provider; not JSON or no access_token → invalidResponse. expires_in → expiresAt from `now`.
import Foundation

/// The token endpoint of one provider.
struct TokenEndpoint: Sendable {
    var url: String
    var clientID: String
    var clientSecret: String
    var auth: TokenEndpointAuth
    var http: any HTTPClient

    /// What the token endpoint gave: the tokens, and the ID token for OpenID Connect.
    struct Answer: Sendable {
        var tokens: ProviderTokens
        var idToken: String?
    }

    /// Tokens for an authorization `code`.
    func exchange(code: String, redirectURI: String, codeVerifier: String, now: Date) throws -> Answer {
        try post([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", codeVerifier)],
                 now: now)
    }

    /// New tokens for `refreshToken`; the old refresh token and scope are kept when the answer has none.
    func refresh(_ tokens: ProviderTokens, now: Date) throws -> ProviderTokens {
        guard let refreshToken = tokens.refreshToken, !refreshToken.isEmpty else { throw OAuthError.provider("no refresh token to use") }
        var fresh = try post([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], now: now).tokens
        if fresh.refreshToken == nil { fresh.refreshToken = refreshToken }
        if fresh.scope == nil { fresh.scope = tokens.scope }
        return fresh
    }

    private func post(_ parameters: [(String, String)], now: Date) throws -> Answer {
        var body = parameters
        var headers = [HTTPRequest.Header("Accept", "application/json"),
                       HTTPRequest.Header("Content-Type", "application/x-www-form-urlencoded")]
        switch auth {
        case .basic:
            let credentials = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(clientSecret)
            headers.append(HTTPRequest.Header("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        case .post:
            body += [("client_id", clientID), ("client_secret", clientSecret)]
        }
        let request = HTTPRequest(method: "POST", url: url, headers: headers, body: Array(FormEncoding.encode(body).utf8))
        return try Self.read(http.send(request), from: url, now: now)
    }

    /// The answer's tokens, or the error it carries.
    static func read(_ response: HTTPResponse, from url: String, now: Date) throws -> Answer {
        let members = try? JSONValue.object(response.body, what: "token answer")
        if let error = members?["error"]?.string {
            let description = members?["error_description"]?.string.map { ": \($0)" } ?? ""
            throw OAuthError.provider("token endpoint \(url) answered \(error)\(description)")
        }
        guard (200..<300).contains(response.status) else {
            throw OAuthError.provider("token endpoint \(url) answered HTTP \(response.status)")
        }
        guard let members else { throw OAuthError.invalidResponse("token endpoint \(url) did not answer a JSON object") }
        guard let accessToken = members["access_token"]?.string, !accessToken.isEmpty else {
            throw OAuthError.invalidResponse("token endpoint \(url) gave no access_token")
        }
        let expiresAt = members["expires_in"]?.integer.flatMap { $0 > 0 ? now.addingTimeInterval(TimeInterval($0)) : nil }
        let refreshToken = members["refresh_token"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let tokens = ProviderTokens(accessToken: accessToken, refreshToken: refreshToken,
                                    tokenType: members["token_type"]?.string ?? "Bearer", scope: members["scope"]?.string,
                                    expiresAt: expiresAt)
        return Answer(tokens: tokens, idToken: members["id_token"]?.string)
    }
}
