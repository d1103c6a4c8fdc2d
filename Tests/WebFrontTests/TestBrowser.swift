// TestBrowser.swift: the app in-process with an in-memory database, and a cookie-keeping client for it.
import AccountCore
import AccountRules
import Foundation
import Logging
import MailTestKit
import OAuthClient
import StorageTestKit
@testable import WebFront

/// The app under test and what a test looks at: services (database), clock, outbox folder.
struct TestApp {
    let app: Frontdoor
    let services: AccountServices
    let clock: FixedClock
    let outbox: String

    /// Delivers queued mail and returns the outbox's messages, read (bodies decoded), oldest first: in the queue's order
    /// (a file's modification time is too coarse to order mails written in one delivery run).
    func deliveredMail() throws -> [ReadMail] {
        try services.mail.deliverDue()
        let ids = try services.database.read { tx in
            try tx.values(String.self, "SELECT messageId FROM mailQueue WHERE sentAt IS NOT NULL ORDER BY id")
        }
        return try ids.map { try ReadMail(String(contentsOfFile: outbox + "/\($0).eml", encoding: .utf8)) }
    }

    /// The first link in the newest mail that contains `marker`.
    func link(containing marker: String) throws -> String? {
        for mail in try deliveredMail().reversed() {
            if let match = mail.readable.firstMatch(of: /http:\/\/[^\s<>"]+/), String(match.0).contains(marker) { return String(match.0) }
        }
        return nil
    }
}

/// Builds a `Frontdoor` over an in-memory database (or `database`), the repo's templates, an outbox in a temp folder,
/// a fixed clock and cheap argon2. With `browserID`, the identity provider too (an RSA key is made: slower). With
/// `http`, the configured social providers call out through it (a fake provider) instead of libcurl.
func makeApp(browserID: Bool = false, http: (any HTTPClient)? = nil, database: AppDatabase? = nil, logger: Logger = Logger(label: "test"),
             configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
    var configuration = AppConfiguration()
    configuration.templates.path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("templates").path
    configuration.password.argon2MemoryKiB = 64
    configuration.password.argon2Iterations = 1
    configuration.mail.outbox = NSTemporaryDirectory() + "frontdoor-test-outbox-" + UUID().uuidString
    configure(&configuration)
    let clock = FixedClock()
    let random = SeededRandomSource(seed: UInt64.random(in: 1...UInt64.max))
    let renderer = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration))
    let services = AccountServices(database: try database ?? TestDatabase.make(), configuration: configuration.core,
                                   validator: AccountForms.signUp(),
                                   composer: TemplateMailComposer(renderer: renderer, configuration: configuration),
                                   transport: OutboxTransport(folder: configuration.mail.outbox),
                                   logger: logger, clock: clock, random: random)
    var identity: BrowserIDServices?
    if browserID {
        identity = BrowserIDServices.make(configuration: configuration, database: services.database, clock: clock, logger: logger)
        try identity?.provider.ensureKey()
    }
    let site = Site(configuration: configuration, renderer: renderer,
                    csrf: CSRF(key: Array(repeating: 9, count: 32)), logger: logger, browserID: identity,
                    social: SocialServices.make(configuration: configuration, http: http, now: { clock.now() }))
    return TestApp(app: Frontdoor(site: site, services: services), services: services, clock: clock, outbox: configuration.mail.outbox)
}

/// A browser: keeps cookies between requests and finds the CSRF token in the last page.
final class TestBrowser {
    let app: Frontdoor
    var cookies: [String: String] = [:]
    var https = false
    /// Cookies someone else set for this host (`a=1; b=2`), sent before the browser's own, as a browser sends a
    /// cookie with a longer Path first.
    var planted: String?
    /// REMOTE_ADDR of this browser's requests.
    var remoteAddress = "127.0.0.1"

    init(_ app: Frontdoor) { self.app = app }

    @discardableResult
    func get(_ uri: String, headers: [String: String] = [:]) -> Response {
        send(Request(params: params("GET", uri, headers)))
    }

    @discardableResult
    func post(_ uri: String, _ form: [String: String], csrf: Bool = true) -> Response {
        var form = form
        if csrf, form["csrf_token"] == nil { form["csrf_token"] = csrfToken(for: uri) }
        let body = form.map { "\(FormData.encode($0.key))=\(FormData.encode($0.value))" }.joined(separator: "&")
        var params = params("POST", uri, [:])
        params["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
        params["CONTENT_LENGTH"] = String(body.utf8.count)
        return send(Request(params: params, body: Array(body.utf8)))
    }

    /// The token in the form served at `uri` (fetched the way a person would, with a GET first); when that
    /// page redirects (signed in), the token of the home page's sign-out form.
    func csrfToken(for uri: String) -> String {
        for page in [uri, "/account/"] {
            let text = get(page).text
            if let match = text.firstMatch(of: /name="csrf_token" value="([^"]+)"/) { return String(match.1) }
        }
        return ""
    }

    func send(_ request: Request) -> Response {
        let response = app.respond(to: request)
        for header in response.headers where header.name == "Set-Cookie" {
            let pair = header.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || header.value.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }

    private func params(_ method: String, _ uri: String, _ headers: [String: String]) -> [String: String] {
        var params = ["REQUEST_METHOD": method, "REQUEST_URI": uri, "REMOTE_ADDR": remoteAddress, "HTTP_USER_AGENT": "TestBrowser/1.0"]
        if let q = uri.firstIndex(of: "?") { params["QUERY_STRING"] = String(uri[uri.index(after: q)...]) }
        let sent = [planted].compactMap { $0 } + cookies.map { "\($0.key)=\($0.value)" }
        if !sent.isEmpty { params["HTTP_COOKIE"] = sent.joined(separator: "; ") }
        if https { params["HTTPS"] = "on" }
        for (name, value) in headers { params["HTTP_" + name.uppercased().replacingOccurrences(of: "-", with: "_")] = value }
        return params
    }
}

extension Response {
    var text: String { String(decoding: body, as: UTF8.self) }
    func cookies(named name: String) -> [String] {
        headers.filter { $0.name == "Set-Cookie" && $0.value.hasPrefix(name + "=") }.map(\.value)
    }
}
