// BrowserIDBridge.swift: the app side of BrowserID-iOS's native sign-in: which page to open in a web view for an
// origin, what the `browserid-origin://` callback it ends on means, and handing the assertion to the app's own server,
// which verifies it and signs the person in there. As the seed warned, verification belongs on that server: the server
// is the relying party, and a receipt checked on the device proves nothing to it (a modified app can claim any
// receipt), so the device never needs a verifier.
//
// Frontdoor serves the page only for origins listed in its `browserid.allowed_origins` (404 otherwise): list the app's.
// Options: `serverURL` (Frontdoor's base, e.g. https://id.example.com/account: the page is <serverURL>/browserid/native),
// `verifierURL` (nil by default: for `verify`, the check a server written in Swift runs with FrontdoorClient, e.g.
// Frontdoor's <serverURL>/verify or another Persona-style verifier, POST {"assertion","audience"} → {"status":"okay",
// "email","audience","expires","issuer"}; a device that verifies itself must name it, knowingly), `transport`, `now`
// (the clock the receipt's expiry is checked against).
// `handOff(assertion:audience:to:)` POSTs {"assertion","audience"} as JSON to the app's server's URL and returns its
// answer as it is (any 2xx; another status is `.appServer(status:)`).
// Callbacks read: browserid-origin://didSucceedWithAssertion?data=<assertion>, browserid-origin://didCancel; the
// seed's web-view shim asks with browserid-origin://getVerifiedEmail/callback?data=<origin> (`requestedOrigin(in:)`).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gets an assertion for an origin through Frontdoor's native sign-in page and hands it to the app's server.
///
/// ```swift
/// let bridge = BrowserIDBridge(serverURL: URL(string: "https://id.example.com/account")!)
/// webView.load(URLRequest(url: try bridge.dialogURL(origin: "https://my.app/")))
/// // in the web view's navigation delegate:
/// if BrowserIDBridge.isCallback(url) {
///     switch try BrowserIDBridge.callback(url) {
///     case .assertion(let assertion):   // the app's server verifies it (e.g. with Frontdoor's /verify) and answers its session
///         let answer = try await bridge.handOff(assertion: assertion, audience: "https://my.app",
///                                               to: URL(string: "https://my.app/session/browserid")!)
///     case .cancelled: dismiss()
///     }
/// }
/// // on the app's server, when it is written in Swift:
/// let verifier = BrowserIDBridge(serverURL: frontdoor, verifierURL: frontdoor.appendingPathComponent("verify"))
/// let receipt = try await verifier.verify(assertion: assertion, audience: "https://my.app")
/// ```
public struct BrowserIDBridge: Sendable {
    /// The scheme of every callback the page navigates to (and of the seed shim's request).
    public static let callbackScheme = "browserid-origin"

    public let serverURL: URL
    /// The verifier `verify` asks; nil (the default): none, the assertion goes to the app's server (`handOff`).
    public let verifierURL: URL?
    public let transport: any HTTPTransport
    private let now: @Sendable () -> Date

    public init(serverURL: URL, verifierURL: URL? = nil, transport: any HTTPTransport = URLSessionTransport(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.serverURL = serverURL
        self.verifierURL = verifierURL
        self.transport = transport
        self.now = now
    }

    /// `<serverURL>/browserid/native?origin=<origin>` for an http(s) origin (`https://my.app`, with or without "/").
    public func dialogURL(origin: String) throws -> URL {
        let origin = try Self.normalizedOrigin(origin)
        // Every byte but the unreserved ones percent-encoded (":" and "/" too), so the value reads the same to any server.
        var unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        unreserved.insert(charactersIn: "-._~")
        let page = serverURL.appendingPathComponent("browserid/native").absoluteString
        guard let value = origin.addingPercentEncoding(withAllowedCharacters: unreserved),
              let url = URL(string: page + "?origin=" + value) else { throw BrowserIDBridgeError.invalidOrigin(origin) }
        return url
    }

    /// Whether a navigation in the web view is the page's answer (stop it and read it with `callback(_:)`).
    public static func isCallback(_ url: URL) -> Bool { url.scheme?.lowercased() == callbackScheme }

    /// The page's answer: the assertion, or the person cancelled. Anything else is `.notACallback`/`.malformedCallback`.
    public static func callback(_ url: URL) throws -> BrowserIDCallback {
        guard isCallback(url) else { throw BrowserIDBridgeError.notACallback(url.absoluteString) }
        switch url.host?.lowercased() {
        case "didcancel":
            return .cancelled
        case "didsucceedwithassertion":
            guard let assertion = data(of: url), Self.looksLikeAssertion(assertion) else {
                throw BrowserIDBridgeError.malformedCallback(url.absoluteString)
            }
            return .assertion(assertion)
        default:
            throw BrowserIDBridgeError.notACallback(url.absoluteString)
        }
    }

    /// The origin a page asks for through the seed's shim (`browserid-origin://getVerifiedEmail/callback?data=<origin>`,
    /// the value URL-encoded or not), normalized.
    public static func requestedOrigin(in url: URL) throws -> String {
        guard isCallback(url), url.host?.lowercased() == "getverifiedemail" else { throw BrowserIDBridgeError.notACallback(url.absoluteString) }
        guard let value = data(of: url) else { throw BrowserIDBridgeError.malformedCallback(url.absoluteString) }
        return try normalizedOrigin(value)
    }

    /// Hands `assertion` for `audience` to the app's own server at `url` (POST {"assertion","audience"} as JSON), which
    /// verifies it and signs the person in there; returns the server's 2xx answer as it is (its session, say).
    /// Throws `.appServer(status:)` for another status, `.connection` when it cannot be reached.
    public func handOff(assertion: String, audience: String, to url: URL) async throws -> HTTPAnswer {
        let answer = try await post(["assertion": assertion, "audience": try Self.normalizedOrigin(audience)], to: url)
        guard (200..<300).contains(answer.status) else { throw BrowserIDBridgeError.appServer(status: answer.status) }
        return answer
    }

    /// Asks the verifier (`verifierURL`) about `assertion` for `audience` and checks its receipt: status okay, the same
    /// audience, an address, not expired. This is the relying party's check: run it on the app's server; on a device it
    /// proves nothing to anyone but the device. Throws `.noVerifier` without a `verifierURL` (nothing sent),
    /// `.refused(reason:)` with the verifier's reason, `.receiptMismatch` otherwise.
    public func verify(assertion: String, audience: String) async throws -> BrowserIDReceipt {
        guard let verifierURL else { throw BrowserIDBridgeError.noVerifier }
        let audience = try Self.normalizedOrigin(audience)
        let answer = try await post(["assertion": assertion, "audience": audience], to: verifierURL)
        guard let body = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] else {
            throw answer.status == 200 ? BrowserIDBridgeError.invalidResponse : BrowserIDBridgeError.verifier(status: answer.status)
        }
        if body["status"] as? String == "failure" { throw BrowserIDBridgeError.refused(reason: body["reason"] as? String ?? "") }
        guard answer.status == 200 else { throw BrowserIDBridgeError.verifier(status: answer.status) }
        return try receipt(body, audience: audience)
    }

    /// POSTs `fields` as JSON to `url`; a failure to reach it is `.connection`.
    private func post(_ fields: [String: String], to url: URL) async throws -> HTTPAnswer {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try JSONSerialization.data(withJSONObject: fields)
        do { return try await transport.send(request) } catch {
            throw BrowserIDBridgeError.connection(error.localizedDescription)
        }
    }

    /// The receipt in `body`, checked against what was asked.
    private func receipt(_ body: [String: Any], audience: String) throws -> BrowserIDReceipt {
        guard body["status"] as? String == "okay" else { throw BrowserIDBridgeError.receiptMismatch("status is not okay") }
        guard let email = body["email"] as? String, email.contains("@") else { throw BrowserIDBridgeError.receiptMismatch("no email") }
        guard let echoed = body["audience"] as? String, (try? Self.normalizedOrigin(echoed)) == audience else {
            throw BrowserIDBridgeError.receiptMismatch("another audience")
        }
        guard let milliseconds = (body["expires"] as? NSNumber)?.doubleValue else { throw BrowserIDBridgeError.receiptMismatch("no expiry") }
        let expires = Date(timeIntervalSince1970: milliseconds / 1000)
        guard expires > now() else { throw BrowserIDBridgeError.receiptMismatch("expired") }
        return BrowserIDReceipt(email: email, audience: audience, expires: expires, issuer: body["issuer"] as? String ?? "")
    }

    /// `scheme://host[:port]` (lower-cased, default port left out) for an http(s) origin with at most "/" as its path.
    public static func normalizedOrigin(_ text: String) throws -> String {
        var text = text.trimmingCharacters(in: .whitespaces)
        if !text.contains("://"), let decoded = text.removingPercentEncoding { text = decoded }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
              components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/" else {
            throw BrowserIDBridgeError.invalidOrigin(text)
        }
        let port = components.port.flatMap { $0 == (scheme == "https" ? 443 : 80) ? nil : $0 }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    /// The decoded `data` query value of a callback URL.
    private static func data(of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "data" }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `certificate~…~assertion`, each a three-part JWS: the shape only (the verifier judges the rest).
    private static func looksLikeAssertion(_ text: String) -> Bool {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { $0.split(separator: ".", omittingEmptySubsequences: false).count == 3 }
    }
}

/// What the native sign-in page answered.
public enum BrowserIDCallback: Sendable, Equatable {
    /// A backed assertion (`certificate~assertion`), for the app's server (`BrowserIDBridge.handOff`), which verifies it.
    case assertion(String)
    /// The person pressed Cancel.
    case cancelled
}

/// The verifier's receipt, after its checks: who signed in, for which origin, until when, vouched for by whom.
public struct BrowserIDReceipt: Sendable, Equatable {
    public let email: String
    public let audience: String
    public let expires: Date
    public let issuer: String

    public init(email: String, audience: String, expires: Date, issuer: String) {
        self.email = email
        self.audience = audience
        self.expires = expires
        self.issuer = issuer
    }
}

/// Why the bridge gave no receipt.
public enum BrowserIDBridgeError: Error, Sendable, Equatable {
    /// Not an http(s) origin (a path, query, user or another scheme).
    case invalidOrigin(String)
    /// A URL that is not one of the page's callbacks (another scheme or action).
    case notACallback(String)
    /// A success callback without an assertion in its `data`.
    case malformedCallback(String)
    /// The verifier said "failure", with its reason (expired, audience mismatch, bad signature …).
    case refused(reason: String)
    /// The verifier said "okay" but its receipt does not match what was asked (or has expired).
    case receiptMismatch(String)
    /// The verifier answered with an HTTP failure and no JSON reason.
    case verifier(status: Int)
    /// The verifier could not be reached.
    case connection(String)
    /// A 200 answer that is not JSON.
    case invalidResponse
    /// `verify` without a `verifierURL`: the assertion is for the app's server (`handOff`).
    case noVerifier
    /// The app's server answered `handOff` with a status other than 2xx.
    case appServer(status: Int)
}
