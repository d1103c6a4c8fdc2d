// FakeProvider.swift: a GitHub-style provider answering in-process through OAuthClient's HTTPClient, and helpers
// that walk a browser through a flow (press the button, come back from the provider with a code or an error).
import AccountCore
import Foundation
import Locking
import OAuthClient
@testable import WebFront

/// Answers the token, user and emails endpoints at https://gh.test like GitHub does; counts what it was asked.
final class FakeGitHub: HTTPClient, @unchecked Sendable {
    private let lock = Lock()
    private var state: (user: [String: Any], emails: [[String: Any]], tokenStatus: Int, issued: Int, requests: [HTTPRequest]) =
        (["id": 42, "login": "octo", "name": "Octo Cat"], [["email": "octo@example.com", "primary": true, "verified": true]], 200, 0, [])

    var user: [String: Any] { get { lock.withLock { state.user } } set { lock.withLock { state.user = newValue } } }
    var emails: [[String: Any]] { get { lock.withLock { state.emails } } set { lock.withLock { state.emails = newValue } } }
    var tokenStatus: Int { get { lock.withLock { state.tokenStatus } } set { lock.withLock { state.tokenStatus = newValue } } }
    var requests: [HTTPRequest] { lock.withLock { state.requests } }
    /// The access token the last exchange handed out.
    var lastAccessToken: String { lock.withLock { "gho_access_\(state.issued)" } }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.withLock { state.requests.append(request) }
        switch request.url.split(separator: "?")[0] {
        case "https://gh.test/token":
            let status = tokenStatus
            guard status == 200 else { return json(["error": "bad_verification_code"], status: status) }
            let n = lock.withLock { state.issued += 1; return state.issued }
            return json(["access_token": "gho_access_\(n)", "token_type": "bearer", "scope": "read:user,user:email",
                         "refresh_token": "ghr_refresh_\(n)", "expires_in": 3600])
        case "https://gh.test/user": return json(user)
        case "https://gh.test/user/emails": return try json(emails)
        default: return HTTPResponse(status: 404)
        }
    }

    private func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
    }
    private func json(_ object: [[String: Any]]) throws -> HTTPResponse { json(object as Any) }
}

/// An app with one provider, `github`, pointed at the fake.
func makeSocialApp(_ provider: FakeGitHub, configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
    try makeApp(http: provider) { configuration in
        configureFakeGitHub(&configuration)
        configure(&configuration)
    }
}

/// Makes `github`, pointed at the fake (https://gh.test), the configuration's one provider.
func configureFakeGitHub(_ configuration: inout AppConfiguration) {
    var github = ProviderConfiguration(id: "github", kind: .github, clientID: "client-1", clientSecret: "secret-1")
    github.authorizationEndpoint = "https://gh.test/authorize"
    github.tokenEndpoint = "https://gh.test/token"
    github.userInfoEndpoint = "https://gh.test/user"
    github.emailsEndpoint = "https://gh.test/user/emails"
    configuration.social.providers = [github]
}

extension TestBrowser {
    /// Presses the provider's button (from `page`, with `fields`) and returns the `state` sent to the provider.
    func startSocial(_ provider: String = "github", from page: String = "/account/sign_in", fields: [String: String] = [:]) -> String? {
        var form = fields
        form["csrf_token"] = csrfToken(for: page)
        let response = post("/account/auth/\(provider)", form)
        guard response.status == 303, let location = response.headers.first(where: { $0.name == "Location" })?.value,
              let components = URLComponents(string: location) else { return nil }
        return components.queryItems?.first { $0.name == "state" }?.value
    }

    /// Comes back from the provider with `query` (code=…&state=… or error=…).
    @discardableResult
    func callback(_ provider: String = "github", _ query: String) -> Response {
        get("/account/auth/\(provider)/callback?\(query)")
    }

    /// A whole sign-in with the provider: the button, then back with a code. Returns the callback's response.
    @discardableResult
    func signInWithProvider(_ provider: String = "github", code: String = "code-1", from page: String = "/account/sign_in",
                            fields: [String: String] = [:]) -> Response {
        let state = startSocial(provider, from: page, fields: fields) ?? ""
        return callback(provider, "code=\(code)&state=\(state)")
    }

    /// Where the last response sent the browser.
    static func location(_ response: Response) -> String? { response.headers.first { $0.name == "Location" }?.value }
}
