// AuthorizeTestSupport.swift: an app with the OpenID Connect provider on and a few clients, and the steps the
// authorize tests share (sign up, follow the redirects, read a redirect's query).
import AccountCore
import AccountRules
import Crypto
import Foundation
import Logging
import StorageTestKit
@testable import WebFront

enum AuthorizeFixture {
    static let secret = "web-secret-web-secret"
    static let web = OpenIDClient(id: "web", name: "Web App", secretDigests: [Data(SHA256.hash(data: Data(secret.utf8)))], isPublic: false,
                                  redirectURIs: ["https://app.example/cb"], scopes: ["openid", "profile", "email", "groups"])
    static let native = OpenIDClient(id: "native", name: "Phone", secretDigests: [], isPublic: true, redirectURIs: ["com.example.app:/cb"],
                                     scopes: ["openid", "email"])
    static let admins = OpenIDClient(id: "admins", name: "Admin Tool", secretDigests: [], isPublic: true, redirectURIs: ["https://admin.example/cb"],
                                     scopes: ["openid"], allow: "group:admins", firstParty: true)
    static let strict = OpenIDClient(id: "strict", name: "Vault", secretDigests: [], isPublic: true, redirectURIs: ["https://vault.example/cb"],
                                     scopes: ["openid"], requiresSecondFactor: true, firstParty: true)
    static let first = OpenIDClient(id: "first", name: "Intranet", secretDigests: [], isPublic: true, redirectURIs: ["https://intranet.example/cb"],
                                    scopes: ["openid", "email"], firstParty: true)
    static let all = [web, native, admins, strict, first]
    /// A PKCE pair: BASE64URL(SHA256(verifier)).
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    static let signUpForm = ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"]
}

/// Like makeApp, with the provider on (`oidc.enabled`) and `clients` configured.
func makeOpenIDApp(clients: [OpenIDClient] = AuthorizeFixture.all, configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
    var configuration = AppConfiguration()
    configuration.templates.path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("templates").path
    configuration.password.argon2MemoryKiB = 64
    configuration.password.argon2Iterations = 1
    configuration.mail.outbox = NSTemporaryDirectory() + "frontdoor-test-outbox-" + UUID().uuidString
    configuration.confirmation.required = false
    configuration.openID.clients = clients
    configure(&configuration)
    let clock = FixedClock(), logger = Logger(label: "test")
    let renderer = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration))
    let services = AccountServices(database: try TestDatabase.make(), configuration: configuration.core, validator: AccountForms.signUp(),
                                   composer: TemplateMailComposer(renderer: renderer, configuration: configuration),
                                   transport: OutboxTransport(folder: configuration.mail.outbox), logger: logger, clock: clock,
                                   random: SeededRandomSource(seed: UInt64.random(in: 1...UInt64.max)), openIDClients: configuration.openID.clients)
    let site = Site(configuration: configuration, renderer: renderer, csrf: CSRF(key: Array(repeating: 9, count: 32)), logger: logger,
                    openID: OpenIDServices.make(configuration: configuration, database: services.database, clock: clock))
    return TestApp(app: Frontdoor(site: site, services: services), services: services, clock: clock, outbox: configuration.mail.outbox)
}

extension Response {
    /// The Location header's query parameters (after the first `?`).
    var locationQuery: [String: String] {
        guard let location = header("Location"), let q = location.firstIndex(of: "?") else { return [:] }
        return FormData.parse(String(location[location.index(after: q)...]))
    }
}

extension TestBrowser {
    /// GET `uri`, then every redirect on this site, until an answer that is not one or leaves the site.
    func follow(_ uri: String) -> Response {
        var response = get(uri)
        for _ in 0..<10 {
            guard (300..<400).contains(response.status), let location = response.header("Location"), location.hasPrefix("/account/") else { break }
            response = get(location)
        }
        return response
    }
}

/// An authorize URI for `client` with the usual parameters and `extra`.
func authorizeURI(_ client: OpenIDClient = AuthorizeFixture.web, _ extra: [String: String] = [:]) -> String {
    var parameters = ["client_id": client.id, "redirect_uri": client.redirectURIs[0], "response_type": "code", "scope": "openid email",
                      "state": "st-1", "nonce": "n-1"]
    if client.isPublic { parameters["code_challenge"] = AuthorizeFixture.challenge; parameters["code_challenge_method"] = "S256" }
    for (key, value) in extra { parameters[key] = value }
    return "/account/oidc/authorize?" + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(FormData.encode($0.value))" }.joined(separator: "&")
}
