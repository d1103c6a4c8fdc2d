// Fixture.swift: the whole app in-process for api-fuzz, built as Tests/WebFrontTests/TestBrowser.swift's makeApp does:
// an in-memory database, the repo's templates, cheap argon2, a fixed clock, an outbox in a temp folder, no logging,
// no address confirmation needed to sign in;
// and one signed-up account whose API token the fuzzed requests may carry.
import AccountCore
import AccountRules
import Foundation
import Logging
import WebFront

/// The app and the account the fuzzed requests act as. libFuzzer calls the harness from one thread only, hence
/// @unchecked Sendable for the account's mutable credentials.
final class Fixture: @unchecked Sendable {
    static let password = "Fuzzing-password-2026"
    let app: Frontdoor
    private(set) var email = "fuzz@example.com"
    private(set) var token = ""
    private var accounts = 0

    init() throws {
        var configuration = AppConfiguration()
        configuration.templates.path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("templates").path
        configuration.password.argon2MemoryKiB = 64
        configuration.password.argon2Iterations = 1
        configuration.confirmation.required = false   // the fixture's new accounts can sign in at once (no mail round trip)
        configuration.signUpLimit = 0   // every fuzz request comes from one client address; the limit would end sign-ups after 20
        configuration.mail.outbox = NSTemporaryDirectory() + "frontdoor-api-fuzz-outbox-" + UUID().uuidString
        let clock = FixedClock()
        let logger = Logger(label: "api-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        let renderer = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration))
        let services = AccountServices(database: try AppDatabase.inMemory(), configuration: configuration.core,
                                       validator: AccountForms.signUp(),
                                       composer: TemplateMailComposer(renderer: renderer, configuration: configuration),
                                       transport: OutboxTransport(folder: configuration.mail.outbox),
                                       logger: logger, clock: clock, random: SeededRandomSource(seed: 2026))
        let site = Site(configuration: configuration, renderer: renderer,
                        csrf: CSRF(key: Array(repeating: 9, count: 32)), logger: logger, browserID: nil,
                        social: SocialServices.make(configuration: configuration, http: nil, now: { clock.now() }))
        app = Frontdoor(site: site, services: services)
        restore()
    }

    /// A JSON API request to `<base>/v1/<route>`.
    func request(_ method: String, _ route: String, body: [UInt8], contentType: String?, credentials: Bool,
                 language: String? = nil, remoteAddress: String = "127.0.0.1") -> Request {
        var params = ["REQUEST_METHOD": method, "REQUEST_URI": "/account/v1/" + route, "REMOTE_ADDR": remoteAddress,
                      "HTTP_USER_AGENT": "api-fuzz/1.0", "HTTP_ACCEPT": "application/json"]
        if let contentType { params["CONTENT_TYPE"] = contentType }
        if !body.isEmpty { params["CONTENT_LENGTH"] = String(body.count) }
        if credentials { params["HTTP_X_USER_EMAIL"] = email; params["HTTP_X_USER_TOKEN"] = token }
        if let language { params["HTTP_ACCEPT_LANGUAGE"] = language }
        return Request(params: params, body: body)
    }

    /// Makes the fixture's token work again after a request that may have ended it (sign-out, delete, a new password,
    /// a new address): checks it, signs in again, or signs up a new account. From an address of its own, so that the
    /// fuzzed requests' failures (throttled per client address) do not lock the fixture out.
    func restore() {
        let own = "10.0.0.1"
        if !token.isEmpty, app.respond(to: request("PUT", "users", body: Array(#"{"user":{}}"#.utf8), contentType: "application/json",
                                                   credentials: true, remoteAddress: own)).status == 200 {
            return
        }
        var refusals: [String] = []
        for attempt in 0..<2 {
            let body = jsonBytes(["user": ["email": email, "password": Self.password]])
            if attempt == 1 || accounts == 0 {
                accounts += 1
                email = accounts == 1 ? "fuzz@example.com" : "fuzz+\(accounts)@example.com"
                let body = jsonBytes(["user": ["email": email, "password": Self.password]])
                let answer = app.respond(to: request("POST", "users", body: body, contentType: "application/json", credentials: false, remoteAddress: own))
                if let token = Self.token(answer) { self.token = token; return }
                refusals.append("sign-up \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                continue
            }
            let answer = app.respond(to: request("POST", "users/sign_in", body: body, contentType: "application/json", credentials: false, remoteAddress: own))
            if let token = Self.token(answer) { self.token = token; return }
            refusals.append("sign-in \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        fatalError("api-fuzz: cannot sign the fixture's account in: " + refusals.joined(separator: "; "))
    }

    /// The authenticationToken of a 201 user answer.
    static func token(_ answer: Response) -> String? {
        guard answer.status == 201, let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] else { return nil }
        return (object["user"] as? [String: Any])?["authenticationToken"] as? String
    }

    func jsonBytes(_ object: Any) -> [UInt8] { Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()) }
}
