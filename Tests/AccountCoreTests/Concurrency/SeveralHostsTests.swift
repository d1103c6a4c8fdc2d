// SeveralHostsTests.swift: two hosts on one database (issue 24): each host's stack built as `serve` builds it (its own
// backend and connections, its own token key file on its own disk, its own services and in-process state), both on
// one SQLite file or one PostgreSQL database (SharedTestDatabase). Here: first starts at the same moment (migrations,
// the CSRF secret, the BrowserID root key, the token key), a token key that differs, a social flow and a pending link
// begun on one host and finished on the other, a residence approved and collected across hosts;
// SeveralHostsTests+Background.swift has the work every host does at once (mail,
// pruning, lockout and sign-up limits). The hosts share one clock (hosts keep NTP time) and differ in randomness.
import AccountRules
import Foundation
import Locking
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

@Suite struct SeveralHostsTests {
    /// One host: its backend on the shared database, its token key file, its services, the mail it sent.
    struct Host {
        let database: AppDatabase
        let keyFile: String
        let services: AccountServices
        let sent: ConcurrencyRulesTests.RecordingTransport
    }

    /// Two hosts (and, for admin commands, any number more) on one database, each with a folder as its own disk.
    struct Hosts {
        let shared: SharedTestDatabase
        let folder: String
        let clock = FixedClock()
        let configuration: CoreConfiguration
        let a: Host
        let b: Host

        /// Two hosts on a new migrated database; the first host's first start makes the token key, which the operator
        /// copies to the second host (docs/several-hosts.md).
        init(lockout: LockoutPolicy = .default, signUp: SignUpPolicy = .default) throws {
            shared = try SharedTestDatabase.make()
            folder = NSTemporaryDirectory() + "frontdoor-hosts-" + UUID().uuidString
            configuration = CoreConfiguration(password: PasswordPolicy(hashing: cheapHashing), mail: MailPolicy(confirmationRequired: false),
                                              lockout: lockout, signUp: signUp)
            let first = try Self.host("a", seed: 11, shared: shared, folder: folder, clock: clock, configuration: configuration)
            a = first
            b = try Self.host("b", seed: 12, shared: shared, folder: folder, clock: clock, configuration: configuration, key: first.keyFile)
        }

        /// Another host (or an admin command's machine) named `name`, with a copy of host A's key file in `folder/name`.
        func host(_ name: String, seed: UInt64) throws -> Host {
            try Self.host(name, seed: seed, shared: shared, folder: folder, clock: clock, configuration: configuration, key: a.keyFile)
        }

        /// Host `name` starting, with a copy of the key file `key` (nil: it makes its own).
        static func host(_ name: String, seed: UInt64, shared: SharedTestDatabase, folder: String, clock: FixedClock,
                         configuration: CoreConfiguration, key: String? = nil) throws -> Host {
            if let key {
                try FileManager.default.createDirectory(atPath: folder + "/\(name)", withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: key, toPath: folder + "/\(name)/social-tokens.key")
            }
            let database = try shared.open()
            let random = SeededRandomSource(seed: seed)
            let keyFile = folder + "/\(name)/social-tokens.key"
            let vault = try TokenVault.loadShared(path: keyFile, database: database, random: random)
            let sent = ConcurrencyRulesTests.RecordingTransport()
            let services = AccountServices(database: database, configuration: configuration,
                                           validator: AccountForms.signUp(passwordLength: configuration.password.length),
                                           composer: LineComposer(), transport: sent, logger: Logger(label: "host-\(name)"),
                                           tokenVault: vault, clock: clock, random: random)
            return Host(database: database, keyFile: keyFile, services: services, sent: sent)
        }

        func remove() {
            shared.remove()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Runs `body` on `count` threads released together (StorageTestKit's Racers); each racer's error or nil.
    func together(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [(any Error)?] {
        Racers.outcomes(count, body)
    }

    /// 32 random bytes in a new 0600 file at `path` (its folder made): a token key the operator made and copied.
    func writeKey(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
    }

    // MARK: First start

    /// Hosts starting on a new, empty database at the same moment: each migrates (one applies each migration, the
    /// others wait or find it done), makes the CSRF secret and the BrowserID root key and records the token key; all
    /// succeed and agree on one of each. Three rounds, three hosts each, on fresh databases.
    @Test func hostsStartingOnANewDatabaseAtOnceMigrateItOnceAndAgreeOnEveryKey() throws {
        for round in 0..<3 {
            let shared = try SharedTestDatabase.make(migrated: false)
            let folder = NSTemporaryDirectory() + "frontdoor-first-start-" + UUID().uuidString
            defer { shared.remove(); try? FileManager.default.removeItem(atPath: folder) }
            let key = SeededRandomSource(seed: UInt64(round + 1)).bytes(32)
            for index in 0..<3 { try writeKey(key, to: folder + "/\(index)/social-tokens.key") }
            let started = Locked([Int: (csrf: [UInt8], rootKey: Int64, check: [UInt8])]())
            let errors = together(3) { index in
                let database = try shared.open()
                let random = SeededRandomSource(seed: UInt64(100 * round + index))
                let csrf = try database.secret(named: "csrf", random: random)
                let rootKey = try SigningKeys(database: database, purpose: "browserid", clock: FixedClock())
                    .addFirst(privateKey: "private-\(index)", publicKey: "public-\(index)")
                let vault = try TokenVault.loadShared(path: folder + "/\(index)/social-tokens.key", database: database, random: random)
                started.change { $0[index] = (csrf, rootKey.id, vault.check) }
            }
            #expect(errors.compactMap { $0.map { "\($0)" } } == [], "round \(round): every host starts")
            let all = started.withLock { Array($0.values) }
            #expect(all.count == 3 && Set(all.map(\.csrf)).count == 1, "one CSRF secret")
            #expect(Set(all.map(\.rootKey)).count == 1, "one BrowserID root key")
            #expect(Set(all.map(\.check)).count == 1)
            let database = try shared.open()
            #expect(try database.pendingMigrations() == [])
            #expect(try database.appliedMigrations().count == database.backend.knownMigrations.count, "each migration applied once")
            #expect(try database.read { tx in try tx.values(String.self, "SELECT name FROM serverSecret ORDER BY name") }
                    == ["csrf", TokenVault.checkName])
            #expect(try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM signingKey") } == 1)
        }
    }

    // MARK: The token key

    /// Two hosts each making a token key of their own at their first start: one records its key, the other is
    /// refused (rather than sealing what the first cannot open) and starts once the first host's key is copied to it.
    /// A host without a key file makes none while one is recorded; forgetting the check lets a new key be recorded.
    @Test func aHostWithAnotherTokenKeyIsRefusedUntilItHasTheSharedOne() throws {
        let shared = try SharedTestDatabase.make()
        let folder = NSTemporaryDirectory() + "frontdoor-token-key-" + UUID().uuidString
        defer { shared.remove(); try? FileManager.default.removeItem(atPath: folder) }
        let path: @Sendable (Int) -> String = { host in folder + "/\(host)/social-tokens.key" }
        let databases = try (0..<2).map { _ in try shared.open() }
        let vaults = Locked([Int: TokenVault]())
        let errors = together(2) { host in
            let vault = try TokenVault.loadShared(path: path(host), database: databases[host], random: SeededRandomSource(seed: UInt64(host + 5)))
            vaults.change { $0[host] = vault }
        }
        let winner = try #require(vaults.withLock { $0.keys.first })
        let loser = 1 - winner
        #expect(vaults.withLock { $0.count } == 1, "one host records its key")
        // Refused with its own new key, or (when the other host had recorded its key before this one looked) refused
        // before making one.
        let refusal = "\(errors[loser].map { "\($0)" } ?? "started")"
        #expect(errors[loser] is TokenVaultError && (refusal.contains("holds another key than the one this database")
                                                   || refusal.contains("missing, but this database has a token key already")), "\(refusal)")
        // The operator copies the first host's key: the second one starts, with the same key.
        try? FileManager.default.removeItem(atPath: path(loser))
        try FileManager.default.createDirectory(atPath: folder + "/\(loser)", withIntermediateDirectories: true)   // refused before making one
        try FileManager.default.copyItem(atPath: path(winner), toPath: path(loser))
        let copied = try TokenVault.loadShared(path: path(loser), database: databases[loser])
        #expect(copied.check == vaults.withLock { $0[winner] }?.check)
        let sealed = try copied.seal(Data("refresh-token".utf8), context: "corp\nsub-1")
        #expect(try vaults.withLock { $0[winner] }?.open(sealed, context: "corp\nsub-1") == Data("refresh-token".utf8))
        // A third host without a key file: refused, and it makes none.
        let third = folder + "/2/social-tokens.key"
        #expect(throws: TokenVaultError.self) { try TokenVault.loadShared(path: third, database: databases[0]) }
        #expect(!FileManager.default.fileExists(atPath: third))
        // Forgotten on purpose (`frontdoor keys forget-token-key`): the next host to start records its new key, and a
        // host still holding the old one is refused.
        #expect(try TokenVault.forgetSharedKey(database: databases[0]))
        #expect(try TokenVault.loadShared(path: third, database: databases[0]).check != copied.check)
        #expect(throws: TokenVaultError.self) { try TokenVault.loadShared(path: path(winner), database: databases[1]) }
    }

    // MARK: Social sign-in

    /// A flow begun on host A (the button) and called back on host B (the provider's redirect reached the other host):
    /// B finds the state, derives the same PKCE verifier and nonce from the browser's binding, opens the invitation A
    /// sealed, and signs up in invite-only mode; the state is used up for A too. Tokens B stores are read on A.
    @Test func aSocialFlowBegunOnAIsFinishedOnB() throws {
        let hosts = try Hosts(signUp: SignUpPolicy(mode: .invite))
        defer { hosts.remove() }
        let invitation = try hosts.b.services.invitations.create(email: "ann@example.com", client: ClientInfo())
        let start = try hosts.a.services.socialFlows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: browser,
                                                           returnTo: "/back", invite: invitation.token)
        let flow = try hosts.b.services.socialFlows.finish(state: start.state, provider: "corp", binding: browser)
        #expect(flow.codeVerifier == start.codeVerifier && flow.nonce == start.nonce)
        #expect(flow.invite == invitation.token && flow.returnTo == "/back")
        let outcome = try hosts.b.services.social.complete(identity(tokens: "{\"access_token\":\"t-1\"}"), flow: flow, binding: browser,
                                                           session: nil, client: ClientInfo(), here: nil)
        guard case .signedIn(let grant, let created) = outcome else { Issue.record("expected a sign-up, got \(outcome)"); return }
        #expect(created)
        #expect(refusal { _ = try hosts.a.services.socialFlows.finish(state: start.state, provider: "corp", binding: browser) }
                == "social_state_invalid", "a state works once, whichever host is called back")
        let tokens = try #require(try hosts.a.services.socialLinks.tokens(accountId: grant.session.accountId, provider: "corp"))
        #expect(String(decoding: tokens.tokens, as: UTF8.self) == "{\"access_token\":\"t-1\"}")
    }

    /// An identity whose address has an account: the pending identity made on A (its provider tokens sealed there) is
    /// shown and linked by password on B, and its tokens are readable on A afterwards.
    @Test func aPendingLinkMadeOnAIsCompletedOnB() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        guard case .signedIn(let owner) = try hosts.b.services.registration.signUp(TestFixture.form(email: "ann@example.com"),
                                                                                      client: ClientInfo()) else {
            Issue.record("sign-up did not sign in"); return
        }
        let start = try hosts.a.services.socialFlows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: browser)
        let flow = try hosts.a.services.socialFlows.finish(state: start.state, provider: "corp", binding: browser)
        guard case .needsLink(let pendingToken) = try hosts.a.services.social.complete(
            identity(tokens: "sealed-on-a"), flow: flow, binding: browser, session: nil, client: ClientInfo(), here: nil) else {
            Issue.record("expected a pending link"); return
        }
        #expect(try hosts.b.services.social.pending(token: pendingToken, binding: browser).provider == "corp")
        let grant = try hosts.b.services.social.linkWithPassword(pendingToken: pendingToken, binding: browser, password: "correct horse",
                                                                 client: ClientInfo(), here: nil)
        #expect(grant.session.accountId == owner.session.accountId)
        let tokens = try #require(try hosts.a.services.socialLinks.tokens(accountId: owner.session.accountId, provider: "corp"))
        #expect(tokens.tokens == Data("sealed-on-a".utf8))
    }

    /// A device asks on A (the JSON API), the person approves the mailed link on A and B at once (two clicks that
    /// reached both hosts), and the device collects from both: one approval, one account, one collection.
    @Test func aResidenceAskedOnAIsApprovedAndCollectedOnceAcrossHosts() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let ticket = try hosts.a.services.residences.register(email: "new@example.com", client: ClientInfo())
        let message = try #require(try hosts.b.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'residence' AND recipientKey = 'new@example.com'")
        })
        let link = String(try #require(message.firstMatch(of: /residence\(token: "([A-Za-z0-9_-]+)"/)).1)
        let approvals = together(2) { index in
            _ = try (index == 0 ? hosts.a : hosts.b).services.residences.approve(token: link, client: ClientInfo())
        }
        #expect(approvals.filter { $0 == nil }.count == 1 && approvals.compactMap { $0 as? AccountError } == [.invalidToken])
        let collected = Locked(0)
        _ = together(2) { index in
            if case .verified = try (index == 0 ? hosts.a : hosts.b).services.residences.collect(id: ticket.id, secret: ticket.secret,
                                                                                                 client: ClientInfo()) {
                collected.change { $0 += 1 }
            }
        }
        #expect(collected.withLock { $0 } == 1)
        #expect(try hosts.a.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 1)
    }
}
