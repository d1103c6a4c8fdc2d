// SeveralHostsTests.swift: two Frontdoor hosts on one database, in-process (issue 24): each built as Bootstrap builds
// `serve` (its own backend on the shared SQLite file or PostgreSQL database, its own token key file, CSRF key and
// BrowserID root key from the database, its own page cache, outbox and support-document caches), one browser whose
// requests land on either host (cookies carried over, as one site behind one nginx upstream). Here: both hosts
// starting at once agree on the CSRF key and the root key, a form shown by A is accepted by B, a key rotated on A
// signs B's next certificate, and a social sign-up in invite-only mode begun on A is called back on B.
import AccountCore
import AccountRules
import BrowserID
import Foundation
import Locking
import Logging
import MailTestKit
import OAuthClient
import StorageTestKit
import Testing
@testable import WebFront

@Suite struct SeveralHostsTests {
    /// One host: its app and services, and where its outbox is.
    struct Host {
        let app: Frontdoor
        let services: AccountServices
        let outbox: String
        var provider: IdentityProvider { app.site.browserID!.provider }
    }

    /// Hosts on one database; each host's local disk is `folder/<name>`, its token key copied from the first host's.
    struct Hosts {
        let shared: SharedTestDatabase
        let folder = NSTemporaryDirectory() + "frontdoor-web-hosts-" + UUID().uuidString
        let clock = FixedClock()
        let http: (any HTTPClient)?
        let configure: @Sendable (inout AppConfiguration) -> Void

        init(migrated: Bool = true, http: (any HTTPClient)? = nil, configure: @escaping @Sendable (inout AppConfiguration) -> Void = { _ in }) throws {
            shared = try SharedTestDatabase.make(migrated: migrated)
            self.http = http
            self.configure = configure
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The operator's token key, made once and copied to every host before their first start.
            FileManager.default.createFile(atPath: folder + "/social-tokens.key", contents: Data(SystemRandomSource().bytes(32)),
                                           attributes: [.posixPermissions: 0o600])
        }

        /// Host `name` starting: what Bootstrap.makeApp does for `serve`.
        func start(_ name: String) throws -> Host {
            var configuration = AppConfiguration()
            configuration.templates.path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("templates").path
            configuration.password.argon2MemoryKiB = 64
            configuration.password.argon2Iterations = 1
            configuration.mail.outbox = folder + "/\(name)/outbox"
            configuration.social.tokenKeyFile = folder + "/\(name)/social-tokens.key"
            configure(&configuration)
            if !FileManager.default.fileExists(atPath: configuration.social.tokenKeyFile) {
                try FileManager.default.createDirectory(atPath: folder + "/\(name)", withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: folder + "/social-tokens.key", toPath: configuration.social.tokenKeyFile)
            }
            let database = try shared.open()
            let random = SeededRandomSource(seed: UInt64.random(in: 1...UInt64.max))
            let logger = Logger(label: "host-\(name)")
            let renderer = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration))
            let vault = try TokenVault.loadShared(path: configuration.social.tokenKeyFile, database: database, random: random)
            let services = AccountServices(database: database, configuration: configuration.core, validator: AccountForms.signUp(),
                                           composer: TemplateMailComposer(renderer: renderer, configuration: configuration),
                                           transport: OutboxTransport(folder: configuration.mail.outbox), logger: logger,
                                           tokenVault: vault, clock: clock, random: random)
            let csrf = CSRF(key: try database.secret(named: "csrf", random: random))
            let browserID = BrowserIDServices.make(configuration: configuration, database: database, clock: clock, logger: logger)
            try browserID.provider.ensureKey()
            let clock = clock
            let site = Site(configuration: configuration, renderer: renderer, csrf: csrf, logger: logger,
                            browserID: browserID, social: SocialServices.make(configuration: configuration, http: http, now: { clock.now() }))
            return Host(app: Frontdoor(site: site, services: services), services: services, outbox: configuration.mail.outbox)
        }

        func remove() {
            shared.remove()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// `browser`'s cookies in a browser whose requests go to `host`.
    func on(_ host: Host, _ browser: TestBrowser) -> TestBrowser {
        let moved = TestBrowser(host.app)
        moved.cookies = browser.cookies
        return moved
    }

    func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// Signs `email` up on `host`, confirms it with the mailed link (the mail goes out from `host`'s outbox), signs in.
    func signedIn(_ email: String, on host: Host) throws -> TestBrowser {
        let browser = TestBrowser(host.app)
        browser.post("/account/sign_up", ["email": email, "password": "correct horse", "password_confirmation": "correct horse"])
        try host.services.mail.deliverDue()
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: host.outbox).first)
        let mail = try ReadMail(String(contentsOfFile: host.outbox + "/" + file, encoding: .utf8)).readable
        let token = try #require(mail.firstMatch(of: /confirm\?token=([A-Za-z0-9_-]+)/)).1
        browser.get("/account/confirm?token=\(token)")
        #expect(browser.post("/account/sign_in", ["email": email, "password": "correct horse"]).status == 303)
        return browser
    }

    @Test func hostsStartingAtOnceAgreeOnTheCSRFKeyAndTheRootKey() throws {
        let hosts = try Hosts(migrated: false)
        defer { hosts.remove() }
        let started = Locked([Host]())
        let errors = Racers.outcomes(2) { index in
            let host = try hosts.start(index == 0 ? "a" : "b")
            started.change { $0.append(host) }
        }
        #expect(errors.compactMap { $0.map { "\($0)" } } == [])
        let (a, b) = try #require(started.withLock { $0.count == 2 ? ($0[0], $0[1]) : nil })
        #expect(a.app.site.csrf.token(binding: [1, 2, 3]) == b.app.site.csrf.token(binding: [1, 2, 3]), "one CSRF key")
        #expect(TestBrowser(a.app).get("/.well-known/browserid").body == TestBrowser(b.app).get("/.well-known/browserid").body,
                "one root key")
        #expect(try a.provider.keys.all().count == 1)
        // A form shown by A (its token bound to the pre-session cookie) is accepted by B, and a signed-in form from B by A.
        let browser = TestBrowser(a.app)
        let token = browser.csrfToken(for: "/account/sign_up")
        let signUp = on(b, browser).post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                              "password_confirmation": "correct horse", "csrf_token": token])
        #expect(signUp.status == 200, "not a 403")
        #expect(try b.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 1)
    }

    @Test func aKeyRotatedOnAIsUsedByBsNextCertificateAndEveryHostVerifiesBoth() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let (a, b) = (try hosts.start("a"), try hosts.start("b"))
        let onB = on(b, try signedIn("bea@example.com", on: a))
        let user = try RSASigningKey.generate()
        let certify = { try #require(try self.json(onB.post("/account/browserid/certify", ["email": "bea@example.com", "pubkey": user.publicKey.jsonText,
                                                                                      "ephemeral": "false"]))["certificate"] as? String) }
        let before = try certify()
        let old = try #require(try a.provider.publishedKeys().first)
        try a.provider.rotate()   // `frontdoor keys rotate` on host A
        let new = try #require(try a.provider.publishedKeys().first)
        let after = try certify()
        let assertion = { (certificate: String) in
            IdentityAssertion.bundle(certificates: [certificate], assertion: try IdentityAssertion.sign(
                audience: "https://rp.example", expiresAt: hosts.clock.now().addingTimeInterval(120), key: user))
        }
        // B signed its next certificate with A's new key, and only with it.
        let signedBy = { (key: PublicKey, certificate: String) -> Bool in
            let only = Verifier(source: OnlyKey(issuer: a.provider.issuer, key: key), policy: VerifierPolicy(trustedSecondaries: [a.provider.issuer]))
            let result = only.verify(assertion: try assertion(certificate), audience: "https://rp.example", now: hosts.clock.now())
            guard case .okay = result else { return false }
            return true
        }
        #expect(try signedBy(new, after) && !signedBy(old, after))
        #expect(try signedBy(old, before))
        // Both hosts' /verify accept both certificates (the old key stays published for a certificate lifetime).
        for host in [a, b] {
            for certificate in [before, after] {
                let answer = TestBrowser(host.app).post("/account/verify", ["assertion": try assertion(certificate), "audience": "https://rp.example"],
                                                        csrf: false)
                #expect(try json(answer)["status"] as? String == "okay")
            }
        }
        #expect(TestBrowser(a.app).get("/.well-known/browserid").body == TestBrowser(b.app).get("/.well-known/browserid").body)
    }

    /// Invite-only sign-up with a provider: the button pressed on A (the invitation carried, sealed, in the flow), the
    /// provider's redirect back landing on B: B finishes the flow with A's state, PKCE verifier and nonce, opens the
    /// invitation and signs the person up; the session works on A too, and A reads the provider tokens B stored.
    @Test func aSocialSignUpBegunOnAIsCalledBackOnB() throws {
        let provider = FakeGitHub()
        let hosts = try Hosts(http: provider) { configuration in
            configureFakeGitHub(&configuration)
            configuration.signUp = .invite
        }
        defer { hosts.remove() }
        let (a, b) = (try hosts.start("a"), try hosts.start("b"))
        let invitation = try a.services.invitations.create(email: "octo@example.com", client: ClientInfo())
        let onA = TestBrowser(a.app)
        let state = try #require(onA.startSocial(from: "/account/sign_up?invite=\(invitation.token)", fields: ["invite": invitation.token]))
        let onB = on(b, onA)
        let callback = onB.callback("github", "code=code-1&state=\(state)")
        #expect(callback.status == 302 || callback.status == 303)
        #expect(onB.get("/account/").text.contains("octo@example.com"), "signed up on B")
        let exchange = try #require(provider.requests.first { $0.url.hasPrefix("https://gh.test/token") })
        #expect(String(decoding: exchange.body, as: UTF8.self).contains("code_verifier="))
        #expect(on(a, onB).get("/account/").text.contains("octo@example.com"), "the session works on A")
        let accountId = try #require(try a.services.socialLinks.accountId(forEmail: "octo@example.com"))
        let tokens = try #require(try a.services.socialLinks.tokens(accountId: accountId, provider: "github"))
        #expect(String(decoding: tokens.tokens, as: UTF8.self).contains(provider.lastAccessToken))
        // The state was used up on B: A refuses it.
        on(a, onB).callback("github", "code=code-2&state=\(state)")
        #expect(try a.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 1)
    }
}

/// A support document source that publishes one key for one issuer.
struct OnlyKey: SupportDocumentSource {
    let issuer: String
    let key: PublicKey

    func supportDocument(for issuer: String) throws -> SupportDocument {
        guard issuer == self.issuer else { throw BrowserIDError(reason: "unknown issuer") }
        return .support(publicKey: key, keys: [key], authentication: "/a", provisioning: "/p")
    }
}
