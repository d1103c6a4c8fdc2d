// TestFixture.swift: AccountServices over a fresh in-memory database, a fixed clock and seeded randomness.
import AccountRules
import Foundation
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

/// argon2id parameters cheap enough for unit tests (the real cost is tested once, in PasswordHasherTests).
let cheapHashing = PasswordHasher.Parameters(memoryKiB: 64, iterations: 1, parallelism: 1)

/// One test's world: services wired as in production, but in memory and deterministic.
struct TestFixture {
    let clock = FixedClock()
    let random: SeededRandomSource
    let database: AppDatabase
    let services: AccountServices

    /// Confirmation is off unless asked for, so sign-up signs in directly. `databasePath`: a database file instead of memory;
    /// `database`: one the test opened (a shared one).
    init(session: SessionPolicy = .default, confirmationRequired: Bool = false, lockout: LockoutPolicy = .default,
         signUp: SignUpPolicy = .default, databasePath: String? = nil, backend: SQLDialect = TestDatabase.backend, seed: UInt64 = 1,
         database given: AppDatabase? = nil, usernames: Username.Mode = .off) throws {
        random = SeededRandomSource(seed: seed)
        database = try given ?? databasePath.map { try AppDatabase.open(path: $0) } ?? TestDatabase.make(backend)
        var configuration = CoreConfiguration(session: session, password: PasswordPolicy(hashing: cheapHashing),
                                              mail: MailPolicy(confirmationRequired: confirmationRequired), lockout: lockout,
                                              signUp: signUp)
        configuration.usernames = usernames
        services = AccountServices(database: database, configuration: configuration,
                                   validator: AccountForms.signUp(passwordLength: configuration.password.length),
                                   composer: LineComposer(), transport: OutboxTransport(folder: NSTemporaryDirectory() + "frontdoor-unused-outbox"),
                                   logger: Logger(label: "test"), clock: clock, random: random)
    }

    /// A sign-up form with a matching confirmation.
    static func form(email: String, password: String = "correct horse") -> [String: String] {
        ["email": email, "password": password, "password_confirmation": password]
    }

    /// Signs `email` up (confirmation off) and returns the session it started.
    @discardableResult
    func signUp(_ email: String = "Ann@Example.com", password: String = "correct horse", client: ClientInfo = ClientInfo()) throws -> SessionGrant {
        guard case .signedIn(let grant) = try services.registration.signUp(Self.form(email: email, password: password), client: client) else {
            throw FixtureError("sign-up did not sign in; is confirmation required?")
        }
        return grant
    }

    /// Signs in with a password.
    @discardableResult
    func signIn(_ email: String = "Ann@Example.com", password: String = "correct horse", rememberMe: Bool = false,
                previousToken: String? = nil, client: ClientInfo = ClientInfo()) throws -> SessionGrant {
        try services.authentication.signIn(email: email, password: password, rememberMe: rememberMe, client: client,
                                           here: previousToken.map { BrowserTokens(active: $0) })
    }

    /// Rows in `table`.
    func count(_ table: String) throws -> Int {
        try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// The stored session row for `grant`.
    func sessionRow(_ grant: SessionGrant) throws -> SQLRow? {
        try database.read { tx in try tx.row("SELECT * FROM session WHERE digest = ?", [grant.token.digest]) }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `field:key` of every problem `body` reports as `AccountError.invalid` (empty when it succeeds; the error's
/// description when it throws something else).
func invalidKeys(_ body: () throws -> Void) -> [String] {
    do {
        try body()
    } catch AccountError.invalid(let errors) {
        return errors.entries.map { "\($0.field):\($0.error.key)" }
    } catch {
        return ["unexpected \(error)"]
    }
    return []
}

/// The token of the newest verification mail queued for `address` in `fixture`.
func verificationToken(_ fixture: TestFixture, to address: String) throws -> String {
    let message = try #require(try fixture.database.read { tx in
        try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'address_verification' AND recipientKey = ? ORDER BY id DESC",
                     [address.lowercased()])
    })
    return String(try #require(message.firstMatch(of: /addressVerification\(token: "([A-Za-z0-9_-]+)"\)/)).1)
}
