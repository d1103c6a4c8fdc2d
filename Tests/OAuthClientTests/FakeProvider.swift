// FakeProvider.swift: test kit: FakeHTTP (canned answers by URL, requests recorded), TestKeys (an RSA and a P-256 key
// made once per run), TestIssuer (discovery document, JWKS and signed ID tokens for https://sso.example.com) and a
// settable clock.
import Crypto
import Foundation
import Locking
import OAuthClient
import _CryptoExtras

/// An HTTPClient that answers from a table and records what it was asked.
final class FakeHTTP: HTTPClient {
    private let state = Locked<(answers: [String: [Result<HTTPResponse, OAuthError>]], requests: [HTTPRequest])>(([:], []))

    /// Answers `url` with `response` from now on.
    func on(_ url: String, _ response: HTTPResponse) { state.withLock { $0.answers[url] = [.success(response)] } }

    /// Queues `response` for `url` after the answers already set (each once, the last one for good).
    func then(_ url: String, _ response: HTTPResponse) { state.withLock { $0.answers[url, default: []].append(.success(response)) } }

    /// Fails calls to `url` with `error`.
    func fail(_ url: String, _ error: OAuthError) { state.withLock { $0.answers[url] = [.failure(error)] } }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let answer = state.withLock { state -> Result<HTTPResponse, OAuthError> in
            state.requests.append(request)
            guard var queue = state.answers[request.url], let first = queue.first else { return .success(HTTPResponse(status: 404)) }
            if queue.count > 1 { queue.removeFirst(); state.answers[request.url] = queue }
            return first
        }
        return try answer.get()
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func requests(to url: String) -> [HTTPRequest] { requests.filter { $0.url == url } }
}

/// A JSON answer.
func json(_ object: Any, status: Int = 200) -> HTTPResponse {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return HTTPResponse(status: status, contentType: "application/json", body: Array(data))
}

/// The form fields of a body or query string.
func formFields(_ text: String) -> [String: String] {
    var components = URLComponents()
    components.percentEncodedQuery = text
    return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
}

/// The query fields of `url`.
func queryFields(_ url: String) -> [String: String] { formFields(String(url.split(separator: "?", maxSplits: 1).last ?? "")) }

func base64url(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// Keys made once per test run (an RSA key takes a moment).
enum TestKeys {
    static let rsa = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let otherRSA = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let ec = P256.Signing.PrivateKey()
}

/// A clock tests move.
final class TestClock: Sendable {
    private let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    var function: @Sendable () -> Date { { self.now } }
}

/// An OpenID Connect issuer served by FakeHTTP: discovery, JWKS (RSA "r1", P-256 "e1") and a token endpoint.
struct TestIssuer {
    let issuer = "https://sso.example.com"
    let clientID = "frontdoor-client"
    let http = FakeHTTP()
    let clock = TestClock()
    var discoveryURL: String { issuer + "/.well-known/openid-configuration" }
    var jwksURL: String { issuer + "/jwks" }
    var tokenURL: String { issuer + "/token" }
    var userInfoURL: String { issuer + "/userinfo" }

    init(documentIssuer: String? = nil) {
        http.on(discoveryURL, json(["issuer": documentIssuer ?? issuer, "authorization_endpoint": issuer + "/authorize",
                                    "token_endpoint": tokenURL, "userinfo_endpoint": userInfoURL, "jwks_uri": jwksURL]))
    }

    /// The provider for this issuer, client secret "s3cret".
    func provider() -> OAuthProvider {
        var configuration = ProviderConfiguration(id: "corp", kind: .oidc, clientID: clientID, clientSecret: "s3cret")
        configuration.issuer = issuer
        return OAuthProvider(configuration: configuration, http: http, now: clock.function)
    }

    /// Serves a JWKS with the RSA key as "r1" and the P-256 key as "e1" (or what `keys` lists).
    func serveKeys(_ keys: [[String: String]]? = nil) { http.on(jwksURL, json(["keys": keys ?? [Self.rsaJWK("r1"), Self.ecJWK("e1")]])) }

    static func rsaJWK(_ kid: String, key: _RSA.Signing.PrivateKey = TestKeys.rsa) -> [String: String] {
        let primitives = try! key.publicKey.getKeyPrimitives()
        return ["kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": base64url(primitives.modulus), "e": base64url(primitives.publicExponent)]
    }

    static func ecJWK(_ kid: String) -> [String: String] {
        let raw = [UInt8](TestKeys.ec.publicKey.rawRepresentation)
        return ["kty": "EC", "kid": kid, "crv": "P-256", "x": base64url(raw[0..<32]), "y": base64url(raw[32..<64])]
    }

    /// Claims a good token has: iss, aud, sub, exp in 10 minutes, iat now, nonce "n-1", a verified email.
    func claims() -> [String: Any] {
        let now = Int(clock.now.timeIntervalSince1970)
        return ["iss": issuer, "aud": clientID, "sub": "user-42", "exp": now + 600, "iat": now, "nonce": "n-1",
                "email": "ann@example.com", "email_verified": true, "name": "Ann"]
    }

    /// A compact JWS over `claims`: RS256 with the RSA key, ES256 with the P-256 key, anything else unsigned.
    func idToken(_ claims: [String: Any], alg: String = "RS256", kid: String? = "r1", rsaKey: _RSA.Signing.PrivateKey = TestKeys.rsa) -> String {
        var header: [String: Any] = ["alg": alg, "typ": "JWT"]
        if let kid { header["kid"] = kid }
        let encode = { (object: [String: Any]) in base64url(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) }
        let input = encode(header) + "." + encode(claims)
        let signature: [UInt8]
        switch alg {
        case "RS256": signature = Array(try! rsaKey.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5).rawRepresentation)
        case "ES256": signature = Array(try! TestKeys.ec.signature(for: Data(input.utf8)).rawRepresentation)
        default: signature = []
        }
        return input + "." + base64url(signature)
    }

    /// Makes the token endpoint answer with `idToken` and an access token.
    func serveToken(_ idToken: String?) {
        var answer: [String: Any] = ["access_token": "at-1", "token_type": "Bearer", "expires_in": 3600]
        if let idToken { answer["id_token"] = idToken }
        http.on(tokenURL, json(answer))
    }

    /// Runs the code exchange with nonce "n-1".
    func exchange(_ provider: OAuthProvider? = nil) throws -> ProviderIdentity {
        try (provider ?? self.provider()).exchange(code: "c-1", redirectURI: "https://example.com/account/auth/corp/callback",
                                                   codeVerifier: "verifier", nonce: "n-1")
    }
}
