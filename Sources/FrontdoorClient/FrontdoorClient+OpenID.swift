// FrontdoorClient+OpenID.swift: sign-in through the server's OpenID Connect provider, as RFC 8252 says a native app
// does: in the system browser, so the person signs in on the server's own pages (passkeys, second factors, social
// sign-in, a session the browser already has) and the app never sees a password.
//
// Options (`ProviderSignIn`): clientID (a public client registered on the server: `frontdoor client add ID --public
// --api-sign-in --redirect-uri …`), redirectURI (exactly as registered: a custom scheme such as
// `com.example.app:/oidc-callback`, a claimed https URL, or http on loopback), scopes (default openid profile email),
// prompt and loginHint (passed on). Steps:
//   1. GET <serverURL>/.well-known/openid-configuration: its issuer must be serverURL, and the authorization and token
//      endpoints must lie under it (an answer that points elsewhere is `.invalidResponse`);
//   2. PKCE S256 (a fresh verifier), a fresh `state`, and the authorization URL opened with the app's
//      `WebAuthenticationSession`, which returns the URL the server sent the browser back to;
//   3. that URL must be the redirect URI and carry our `state` (`.openIDStateMismatch`); an `error` there is
//      `.openIDRefused(error:message:)` (e.g. access_denied, the person may not use the app);
//   4. POST <token endpoint> form-encoded: grant_type=authorization_code, code, redirect_uri, client_id, code_verifier
//      (no secret: a public client); an error answer is `.openIDRefused`;
//   5. POST v1/users/sign_in/oidc {"access_token": …}: the API token, stored like a password sign-in's (the account
//      becomes the active one). The server accepts it only from a client with `api_sign_in`.
import AccountRules
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The system browser session the app supplies: opens `url` and returns the callback URL the browser was sent to.
///
/// On Apple platforms, wrap `ASWebAuthenticationSession` (it shares the Safari session, so a person already signed
/// in to the server is not asked again):
///
/// ```swift
/// struct SystemBrowser: WebAuthenticationSession {
///     let anchor: ASPresentationAnchor
///     func authenticate(url: URL, callbackURLScheme: String?) async throws -> URL {
///         try await withCheckedThrowingContinuation { continuation in
///             let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackURLScheme) { url, error in
///                 if let url { continuation.resume(returning: url) } else { continuation.resume(throwing: error ?? CancellationError()) }
///             }
///             session.presentationContextProvider = …   // returns `anchor`
///             session.start()
///         }
///     }
/// }
/// ```
/// On Android-like or desktop platforms, open the URL in the default browser and wait for the redirect (a custom
/// scheme handler, or a loopback listener for `http://127.0.0.1:<port>/…`). Throw `CancellationError` (or the
/// platform's own cancel error) when the person closes the window: it reaches the caller unchanged.
public protocol WebAuthenticationSession: Sendable {
    /// Shows `url` in the system browser until it is sent to a URL of `callbackURLScheme` (nil: an https or loopback
    /// redirect URI, which the app receives its own way) and returns that URL.
    func authenticate(url: URL, callbackURLScheme: String?) async throws -> URL
}

/// Which registered client the app is, and what it asks for.
public struct ProviderSignIn: Sendable, Equatable {
    public var clientID: String
    public var redirectURI: String
    public var scopes: [String]
    /// `login` (always ask), `select_account` (choose among the browser's accounts), `consent`; nil: the server decides.
    public var prompt: String?
    /// An address or username to fill in on the sign-in page.
    public var loginHint: String?

    public init(clientID: String, redirectURI: String, scopes: [String] = ["openid", "profile", "email"],
                prompt: String? = nil, loginHint: String? = nil) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.prompt = prompt
        self.loginHint = loginHint
    }
}

extension FrontdoorClient {
    /// Signs in through the server's OpenID Connect provider in the system browser, then exchanges the access token for
    /// an API token, which is remembered as the active account's.
    ///
    /// ```swift
    /// let user = try await client.signInThroughProvider(
    ///     ProviderSignIn(clientID: "notes-ios", redirectURI: "com.example.notes:/oidc-callback"), session: SystemBrowser(anchor: window))
    /// ```
    /// - Parameter random: the source of the PKCE verifier and `state` (the system's by default; tests pass their own).
    @discardableResult
    public func signInThroughProvider(_ request: ProviderSignIn, session: any WebAuthenticationSession,
                                      random: @Sendable (Int) -> [UInt8] = FrontdoorClient.systemRandom) async throws -> User {
        try check(["client_id": request.clientID, "redirect_uri": request.redirectURI],
                  with: Validator(["client_id", "redirect_uri"].map { Field($0, displayName: $0, rules: [.required]) }))
        guard let redirect = URL(string: request.redirectURI), let scheme = redirect.scheme else {
            throw FrontdoorClientError.invalidResponse
        }
        let endpoints = try await discover()
        let pkce = PKCE(random: random)
        let state = PKCE.base64URL(random(16))
        var parameters = [("response_type", "code"), ("client_id", request.clientID), ("redirect_uri", request.redirectURI),
                          ("scope", request.scopes.joined(separator: " ")), ("state", state),
                          ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]
        if let prompt = request.prompt { parameters.append(("prompt", prompt)) }
        if let hint = request.loginHint { parameters.append(("login_hint", hint)) }
        var components = URLComponents(url: endpoints.authorization, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = Self.formEncoded(parameters)
        log(.everything, "GET oidc/authorize in the system browser")
        let callbackScheme = ["https", "http"].contains(scheme.lowercased()) ? nil : scheme
        let callback = try await session.authenticate(url: components.url!, callbackURLScheme: callbackScheme)
        let code = try Self.code(from: callback, redirectURI: request.redirectURI, state: state)
        let accessToken = try await redeem(code, at: endpoints.token, request: request, verifier: pkce.verifier)
        return try signedIn(await send("POST", resource + "/sign_in/oidc", body: ["access_token": accessToken]))
    }

    /// The system's secure random bytes.
    public static func systemRandom(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The provider's authorization and token endpoints, from its discovery document; both under the issuer, which
    /// must be `serverURL`.
    func discover() async throws -> (authorization: URL, token: URL) {
        let issuer = Self.trimmed(configuration.serverURL.absoluteString)
        let request = URLRequest(url: URL(string: issuer + "/.well-known/openid-configuration")!, timeoutInterval: configuration.timeout)
        let answer = try await sendRetrying(request, name: "GET .well-known/openid-configuration")
        guard answer.status == 200 else {
            log(.warnings, "\(answer.status) GET .well-known/openid-configuration")
            throw FrontdoorClientError.server(status: answer.status, message: HTTPURLResponse.localizedString(forStatusCode: answer.status))
        }
        let document = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
        guard document["issuer"] as? String == issuer,
              let authorization = (document["authorization_endpoint"] as? String).flatMap({ Self.under(issuer, $0) }),
              let token = (document["token_endpoint"] as? String).flatMap({ Self.under(issuer, $0) }) else {
            log(.warnings, "discovery document refused: not this server's")
            throw FrontdoorClientError.invalidResponse
        }
        return (authorization, token)
    }

    /// The code the callback carries, once it is shown to be the answer to our request.
    static func code(from callback: URL, redirectURI: String, state: String) throws -> String {
        guard var components = URLComponents(url: callback, resolvingAgainstBaseURL: false) else { throw FrontdoorClientError.invalidResponse }
        let items = components.queryItems ?? []
        components.query = nil
        components.fragment = nil
        guard components.string == redirectURI, items.first(where: { $0.name == "state" })?.value == state else {
            throw FrontdoorClientError.openIDStateMismatch
        }
        let value = { (name: String) in items.first { $0.name == name }?.value }
        if let error = value("error") {
            throw FrontdoorClientError.openIDRefused(error: error, message: value("error_description") ?? error)
        }
        guard let code = value("code"), !code.isEmpty else { throw FrontdoorClientError.invalidResponse }
        return code
    }

    /// The access token the token endpoint gives for `code` (public client: the verifier instead of a secret).
    func redeem(_ code: String, at endpoint: URL, request: ProviderSignIn, verifier: String) async throws -> String {
        var post = URLRequest(url: endpoint, timeoutInterval: configuration.timeout)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.setValue("application/json", forHTTPHeaderField: "Accept")
        post.httpBody = Data(Self.formEncoded([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", request.redirectURI),
                                                ("client_id", request.clientID), ("code_verifier", verifier)]).utf8)
        let answer = try await sendRetrying(post, name: "POST oidc/token")
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
        guard answer.status == 200 else {
            let error = object["error"] as? String ?? "server_error"
            log(.warnings, "\(answer.status) POST oidc/token: \(error)")
            throw FrontdoorClientError.openIDRefused(error: error, message: object["error_description"] as? String ?? error)
        }
        guard let token = object["access_token"] as? String, !token.isEmpty else { throw FrontdoorClientError.invalidResponse }
        return token
    }

    /// `name=value&…`, each escaped as application/x-www-form-urlencoded wants (only unreserved characters kept).
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    /// `endpoint` as a URL when it is `issuer` itself followed by a path.
    private static func under(_ issuer: String, _ endpoint: String) -> URL? {
        endpoint.hasPrefix(issuer + "/") ? URL(string: endpoint) : nil
    }

    private static func trimmed(_ url: String) -> String {
        var text = url
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
