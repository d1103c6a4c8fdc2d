// FrontdoorClient.swift: the Swift client of one Frontdoor server's JSON API (devise-ios users and email residences).
//
// Options: `Configuration` (server URL, API version, resource name, timeout, retries and backoff, password length,
// extra parameters, validation rules and field names per action, log level, catalog), the `CredentialsStore` that
// remembers the signed-in accounts and the residences, and the `HTTPTransport` (URLSession by default). The calls are
// in FrontdoorClient+Account.swift, +Accounts.swift (several accounts), +Social.swift, +Residences.swift and
// +SecondFactor.swift (the code an account with a second factor gives after its password); this file
// holds the shared plumbing: the active account's credentials, the request (JSON body, Accept,
// X-User-Email/X-User-Token), the checks before sending and the retry loop.
import AccountRules
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of one Frontdoor server's JSON API for native apps.
///
/// Account calls follow devise-ios: register, sign in and out, profile and password changes, reminders, deletion.
/// A successful sign-in (or registration) stores the account's email, token and id in the `CredentialsStore`, and
/// later calls authenticate with them. Email residences (IIResidenceStore's flow) sign a device in without a
/// password: the server mails a link, the person allows the device, the app collects a token.
///
/// ```swift
/// let client = FrontdoorClient(
///     configuration: .init(serverURL: URL(string: "https://example.com/account")!),
///     store: FileCredentialsStore(path: NSHomeDirectory() + "/.myapp/credentials.json"))
/// do {
///     let user = try await client.signIn(email: "ann@example.com", password: "correct horse battery")
///     try await client.update(fields: ["displayName": "Ann"])
///     print(user.id!, client.currentUser?.email ?? "")
///     try await client.signOut()
/// } catch FrontdoorClientError.secondFactorRequired(let challenge) {
///     try await client.completeSignIn(challenge, code: askForCode())   // the account has a second factor
/// } catch FrontdoorClientError.unauthorized(let message) {
///     print(message)   // "Invalid email or password."
/// }
///
/// // Without a password: ask, let the person click the mailed link, then collect.
/// try await client.registerResidence(email: "ann@example.com")
/// if try await client.verifyResidence(email: "ann@example.com") {
///     try await client.useResidence(email: "ann@example.com")
/// }
/// ```
public final class FrontdoorClient: Sendable {
    public let configuration: Configuration
    public let store: any CredentialsStore
    public let transport: any HTTPTransport

    public init(configuration: Configuration, store: any CredentialsStore,
                transport: any HTTPTransport = URLSessionTransport()) {
        self.configuration = configuration
        self.store = store
        self.transport = transport
    }

    /// The active account's credentials for this server; nil when there are none (or the store cannot be read).
    public var credentials: Credentials? {
        guard let credentials = try? store.defaultCredentials(), credentials.url == configuration.serverURL else { return nil }
        return credentials
    }

    /// The signed-in account as remembered locally (id, email, token); nil when signed out.
    public var currentUser: User? {
        credentials.map(Self.user(from:))
    }

    /// Whether credentials are stored for this server.
    public var isSignedIn: Bool { credentials != nil }

    // MARK: - Plumbing shared by the calls

    /// Remembers `user` (with its token) as the signed-in account: the active one, and kept among the accounts.
    func remember(_ user: User, token: String) throws {
        var extra: [String: String] = [:]
        if let id = user.id { extra["id"] = String(id) }
        try activate(Credentials(username: user.email, secret: token, url: configuration.serverURL, extra: extra))
    }

    /// The body for `action`: `fields` under `root` (or at the top level when nil), with the configured extra
    /// parameters added where the call did not set the key itself, checked against the action's `validationRules`
    /// (`.invalid`, nothing sent) and, under a root, its keys renamed by `fieldNames`.
    func body(_ action: Action, root: String? = "user", _ fields: [String: String]) throws -> [String: Any] {
        var merged = configuration.extraParameters[action] ?? [:]
        merged.merge(fields) { _, own in own }
        if let rules = configuration.validationRules[action], !rules.isEmpty {
            try check(merged, with: Validator(rules))
        }
        guard let root else { return merged }
        var renamed: [String: String] = [:]
        for (key, value) in merged { renamed[configuration.fieldNames[key] ?? key] = value }
        return [root: renamed]
    }

    /// Sends `method path` with `body` (JSON) and, when `authenticated`, the headers of `account` (the active
    /// account's when nil). Connection failures are retried; an HTTP failure status throws its `FrontdoorClientError`.
    func send(_ method: String, _ path: String, body: [String: Any]? = nil, authenticated: Bool = false,
              as account: Credentials? = nil) async throws -> HTTPAnswer {
        var request = URLRequest(url: configuration.url(path), timeoutInterval: configuration.timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        }
        if authenticated {
            guard let credentials = account ?? credentials else { throw FrontdoorClientError.notSignedIn }
            request.setValue(credentials.username, forHTTPHeaderField: "X-User-Email")
            request.setValue(credentials.secret, forHTTPHeaderField: "X-User-Token")
        }
        let name = "\(method) v\(configuration.apiVersion)/\(path)"
        log(.everything, name)
        let started = Date()
        let answer = try await sendRetrying(request, name: name)
        guard (200..<300).contains(answer.status) else {
            let error = FrontdoorClientError.from(status: answer.status, body: answer.body)
            log(.warnings, "\(answer.status) \(name): \(error.message)")
            throw error
        }
        log(.everything, "\(answer.status) \(name) (\(Int(Date().timeIntervalSince(started) * 1000)) ms)")
        return answer
    }

    /// `request` through the transport, again after a connection failure up to `configuration.retries` times.
    func sendRetrying(_ request: URLRequest, name: String) async throws -> HTTPAnswer {
        var attempt = 0
        while true {
            do {
                return try await transport.send(request)
            } catch let error as URLError where error.code.isConnectionFailure && attempt < configuration.retries {
                attempt += 1
                let delay = configuration.delay(beforeRetry: attempt)
                log(.warnings, "\(name): no connection (URLError \(error.code.rawValue)); retry \(attempt) of \(configuration.retries) in \(delay) s")
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch let error as URLError {
                log(.warnings, "\(name): no connection (URLError \(error.code.rawValue)) after \(attempt + 1) attempts")
                throw FrontdoorClientError.connection("\(error.localizedDescription) (URLError \(error.code.rawValue))")
            } catch let error where error is FrontdoorClientError || error is CancellationError {
                throw error
            } catch {
                throw FrontdoorClientError.connection(String(describing: error))
            }
        }
    }

    /// Checks `values` against `validator`'s fields named in `only` (all when nil); throws `.invalid` on a problem.
    func check(_ values: [String: String], with validator: Validator, only names: Set<String>? = nil) throws {
        let errors = validator.validate(values)
        var kept = ValidationErrors()
        for entry in errors.entries where names?.contains(entry.field) ?? true {
            kept.add(entry.error, to: entry.field, displayName: entry.displayName)
        }
        guard kept.isEmpty else {
            log(.warnings, "not sent: invalid \(kept.fieldNames.joined(separator: ", "))")
            throw FrontdoorClientError.invalid(kept)
        }
    }
}
