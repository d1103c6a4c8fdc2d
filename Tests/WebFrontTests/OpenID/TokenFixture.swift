// TokenFixture.swift: the provider's back channel under test: an app with OpenID Connect on and two clients (a
// confidential web app and a public native app), Ann signed in in a browser, codes issued straight from the core (the
// authorization endpoint has its own tests), and a client's requests to the endpoints as form posts.
@testable import AccountCore
import Crypto
import Encodings
import Foundation
import Testing
@testable import WebFront

struct TokenFixture {
    static let secret = "web:secret with a colon & more"
    static let redirect = "https://app.example.com/callback"
    static let web = OpenIDClient(id: "web", name: "Web App", secretDigests: [OpenIDClient.digest(ofSecret: secret)],
                                  redirectURIs: [redirect])
    /// Another confidential client with the same secret.
    static let other = OpenIDClient(id: "other", name: "Other App", secretDigests: [OpenIDClient.digest(ofSecret: secret)],
                                    redirectURIs: ["https://other.example.com/callback"])
    static let native = OpenIDClient(id: "native", name: "Native App", isPublic: true, redirectURIs: ["com.example.app:/callback"])
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    let test: TestApp
    let browser: TestBrowser
    var core: AccountServices { test.services }
    var site: Site { test.app.site }
    var openID: OpenIDServices { test.app.site.openID! }

    /// Ann signed up (address verified) and signed in; `clients` configured.
    init(clients: [OpenIDClient] = [web, other, native], configure: @escaping (inout AppConfiguration) -> Void = { _ in }) throws {
        test = try makeOpenIDApp(clients: clients) {
            $0.confirmation.required = false
            $0.publicURL = "https://login.example.com"
            configure(&$0)
        }
        browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        _ = try test.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
    }

    /// The browser's live session.
    func session() throws -> SessionInfo {
        for value in browser.cookies.values { if let found = try core.sessions.find(token: value) { return found } }
        throw TokenFixtureError.noSession
    }

    /// Ann's authentication at the moment of a grant, as the authorization endpoint records it.
    func authentication(factors: Int = 1) throws -> OpenIDAuthentication {
        let session = try session()
        return OpenIDAuthentication(accountID: session.accountId, sessionDigest: session.digest, authTime: session.createdAt, factors: factors)
    }

    /// A code for `client`, as the authorization endpoint issues it.
    func code(_ client: OpenIDClient = web, scopes: [String] = ["openid", "profile", "email", "groups"], nonce: String? = "n-0S6",
              verifier: String? = nil, factors: Int = 1) throws -> String {
        try core.openID.issueCode(OpenIDCodeRequest(clientID: client.id, redirectURI: client.redirectURIs[0], scopes: scopes, nonce: nonce,
                                                    codeChallenge: verifier.map(Self.challenge), authentication: authentication(factors: factors)))
    }

    /// PKCE S256: base64url(SHA-256(verifier)).
    static func challenge(_ verifier: String) -> String { Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) }

    /// `Authorization: Basic` as RFC 6749 2.3.1 says: each half form-urlencoded, then base64.
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data((FormData.encode(id) + ":" + FormData.encode(secret)).utf8).base64EncodedString()
    }

    /// A client's POST to `<base>/<path>` with a form body.
    func post(_ path: String, _ form: [(String, String)], headers: [String: String] = [:],
              contentType: String = "application/x-www-form-urlencoded") -> Answer {
        Client(app: test.app).post(path, form, headers: headers, contentType: contentType)
    }

    /// A GET of `<base>/<path>` with headers and no cookies.
    func get(_ path: String, headers: [String: String] = [:]) -> Answer { Client(app: test.app).get(path, headers: headers) }

    /// The metrics page's text, as a scraper on loopback reads it.
    func metrics() -> String { String(decoding: get("metrics").response.body, as: UTF8.self) }

    /// The web app redeeming `code` with its secret in Basic.
    func redeem(_ code: String, client: OpenIDClient = web, redirectURI: String? = nil, verifier: String? = nil) -> Answer {
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI ?? client.redirectURIs[0])]
        if let verifier { form.append(("code_verifier", verifier)) }
        if client.isPublic { return post("oidc/token", form + [("client_id", client.id)]) }
        return post("oidc/token", form, headers: ["Authorization": Self.basic(client.id, Self.secret)])
    }

    /// The web app's refresh.
    func refresh(_ token: String, scope: String? = nil) -> Answer {
        var form = [("grant_type", "refresh_token"), ("refresh_token", token)]
        if let scope { form.append(("scope", scope)) }
        return post("oidc/token", form, headers: ["Authorization": Self.basic("web", Self.secret)])
    }

    /// The ID token's claims, after checking its signature with the published keys.
    func claims(_ idToken: Any?) throws -> [String: Any] {
        try openID.keys.verify(try #require(idToken as? String))
    }

    /// A client of the endpoints: form posts and GETs without cookies.
    struct Client {
        let app: Frontdoor

        /// A client's POST to `<base>/<path>` with a form body.
        func post(_ path: String, _ form: [(String, String)], headers: [String: String] = [:],
                  contentType: String = "application/x-www-form-urlencoded") -> Answer {
            let body = form.map { FormData.encode($0.0) + "=" + FormData.encode($0.1) }.joined(separator: "&")
            var params = ["REQUEST_METHOD": "POST", "REQUEST_URI": "/account/" + path, "REMOTE_ADDR": "127.0.0.1",
                          "CONTENT_TYPE": contentType, "CONTENT_LENGTH": String(body.utf8.count)]
            for (name, value) in headers { params["HTTP_" + name.uppercased().replacingOccurrences(of: "-", with: "_")] = value }
            return Answer(response: app.respond(to: Request(params: params, body: Array(body.utf8))))
        }

        /// A GET of `<base>/<path>` with headers and no cookies.
        func get(_ path: String, headers: [String: String] = [:]) -> Answer {
            var params = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/" + path, "REMOTE_ADDR": "127.0.0.1"]
            for (name, value) in headers { params["HTTP_" + name.uppercased().replacingOccurrences(of: "-", with: "_")] = value }
            return Answer(response: app.respond(to: Request(params: params)))
        }
    }

    struct Answer {
        let response: Response
        var status: Int { response.status }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:] }
        var error: String? { json["error"] as? String }
        subscript(_ key: String) -> Any? { json[key] }
        /// Cache-Control: no-store and Pragma: no-cache, as every token answer must carry.
        var notCached: Bool { response.header("Cache-Control") == "no-store" && response.header("Pragma") == "no-cache" }
    }
}

enum TokenFixtureError: Error { case noSession }
