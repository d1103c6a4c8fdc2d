// AccountServices.swift: the account operations wired together once, from one configuration.
import AccountRules
import Logging

/// Every account operation, built from the database, configuration, clock and randomness it is given.
///
/// ```swift
/// let services = AccountServices(database: try AppDatabase.open(path: path), configuration: .default,
///                                validator: AccountForms.signUp(), logger: logger)
/// let grant = try services.authentication.signIn(email: "a@b.c", password: "…", rememberMe: false, client: ClientInfo())
/// ```
public struct AccountServices: Sendable {
    public let database: AppDatabase
    public let configuration: CoreConfiguration
    public let clock: any Clock
    public let random: any RandomSource
    public let hasher: PasswordHasher
    public let sessions: Sessions
    public let registration: Registration
    public let authentication: Authentication

    public init(database: AppDatabase, configuration: CoreConfiguration, validator: Validator, logger: Logger,
                clock: any Clock = SystemClock(), random: any RandomSource = SystemRandomSource()) {
        self.database = database
        self.configuration = configuration
        self.clock = clock
        self.random = random
        hasher = PasswordHasher(parameters: configuration.password.hashing, random: random)
        sessions = Sessions(database: database, policy: configuration.session, clock: clock, random: random)
        registration = Registration(database: database, validator: validator, hasher: hasher, sessions: sessions,
                                    clock: clock, logger: logger)
        authentication = Authentication(database: database, hasher: hasher, sessions: sessions, clock: clock, logger: logger)
    }
}
