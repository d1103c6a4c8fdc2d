// AccountServices.swift: the account operations wired together once, from one configuration.
import AccountRules
import Logging

/// Every account operation, built from the database, configuration, clock and randomness it is given.
///
/// ```swift
/// let services = AccountServices(database: try AppDatabase.open(path: path), configuration: .default,
///                                validator: AccountForms.signUp(), composer: composer,
///                                transport: OutboxTransport(folder: "var/outbox"), logger: logger)
/// let grant = try services.authentication.signIn(email: "a@b.c", password: "…", rememberMe: false, client: ClientInfo())
/// ```
public struct AccountServices: Sendable {
    public let database: AppDatabase
    public let configuration: CoreConfiguration
    public let clock: any Clock
    public let random: any RandomSource
    public let hasher: PasswordHasher
    public let sessions: Sessions
    public let mail: MailQueue
    public let registration: Registration
    public let authentication: Authentication
    public let browserSessions: BrowserSessions
    public let confirmation: Confirmation
    public let reminder: PasswordReminder
    public let addresses: EmailAddresses
    public let audit: AuditLog
    public let lockout: Lockout
    public let administration: Administration
    public let invitations: Invitations
    public let reauthentication: Reauthentication
    public let passwordChange: PasswordChange
    public let deletion: AccountDeletion
    public let sessionManagement: SessionManagement
    public let profile: Profile
    public let tokenVault: TokenVault
    public let socialFlows: SocialFlows
    public let social: SocialSignIn
    public let socialLinks: SocialLinks
    public let apiTokens: APITokens
    public let residences: Residences
    public let retention: Retention
    public let groups: Groups
    public let usernames: Usernames
    public let signInMethods: SignInMethods
    public let secondFactor: SecondFactorSignIn
    public let oneTimeCodes: OneTimeCodes
    public let passkeys: Passkeys
    /// The OpenID Connect provider's grants and tokens, and its clients (the config's handed in as `openIDClients`).
    public let openID: OpenIDGrants
    public let openIDClients: OpenIDClients

    /// Without OpenID clients of the config file (the database's are still there).
    public init(database: AppDatabase, configuration: CoreConfiguration, validator: Validator,
                composer: any MailComposer, transport: any MailTransport, logger: Logger, profileFields: [ProfileField] = [],
                tokenVault: TokenVault? = nil,
                clock: any Clock = SystemClock(), random: any RandomSource = SystemRandomSource()) {
        self.init(database: database, configuration: configuration, validator: validator, composer: composer, transport: transport,
                  logger: logger, profileFields: profileFields, tokenVault: tokenVault, clock: clock, random: random, openIDClients: [])
    }

    /// `openIDClients`: the config file's OpenID clients (`oidc.clients`), handed in by the web layer.
    public init(database: AppDatabase, configuration: CoreConfiguration, validator: Validator,
                composer: any MailComposer, transport: any MailTransport, logger: Logger, profileFields: [ProfileField] = [],
                tokenVault: TokenVault? = nil,
                clock: any Clock = SystemClock(), random: any RandomSource = SystemRandomSource(), openIDClients configuredClients: [OpenIDClient]) {
        self.database = database
        self.configuration = configuration
        self.clock = clock
        self.random = random
        hasher = PasswordHasher(parameters: configuration.password.hashing, random: random)
        sessions = Sessions(database: database, policy: configuration.session, clock: clock, random: random)
        var mail = MailQueue(database: database, composer: composer, transport: transport, clock: clock, random: random, logger: logger)
        mail.retryBase = configuration.mail.retryBase
        mail.throttle = configuration.mail.throttle
        self.mail = mail
        let tokens = AccountTokens(clock: clock, random: random)
        audit = AuditLog(database: database, clock: clock)
        lockout = Lockout(database: database, policy: configuration.lockout, tokens: tokens, mail: mail, audit: audit, clock: clock,
                          logger: logger, resetLifetime: configuration.mail.resetLifetime)
        confirmation = Confirmation(database: database, tokens: tokens, mail: mail, lockout: lockout, audit: audit, logger: logger,
                                    required: configuration.mail.confirmationRequired,
                                    lifetime: configuration.mail.confirmationLifetime)
        invitations = Invitations(database: database, policy: configuration.signUp, mail: mail, audit: audit,
                                  clock: clock, random: random, logger: logger)
        usernames = Usernames(database: database, mode: configuration.usernames, audit: audit, logger: logger)
        profile = Profile(database: database, fields: profileFields, languages: configuration.languages, audit: audit,
                          clock: clock, logger: logger, usernames: usernames)
        registration = Registration(database: database, validator: validator, hasher: hasher, sessions: sessions,
                                    confirmation: confirmation, audit: audit, invitations: invitations, profile: profile,
                                    usernames: usernames, clock: clock, logger: logger)
        browserSessions = BrowserSessions(database: database, sessions: sessions, audit: audit, logger: logger)
        addresses = EmailAddresses(database: database, validator: validator, confirmation: confirmation, tokens: tokens, mail: mail,
                                   audit: audit, clock: clock, logger: logger)
        reauthentication = Reauthentication(database: database, hasher: hasher, lockout: lockout, audit: audit,
                                            policy: configuration.session, clock: clock, logger: logger)
        passwordChange = PasswordChange(database: database, validator: validator, hasher: hasher, reauthentication: reauthentication,
                                        tokens: tokens, mail: mail, audit: audit, clock: clock, logger: logger)
        deletion = AccountDeletion(database: database, reauthentication: reauthentication, mail: mail, audit: audit,
                                   clock: clock, logger: logger)
        sessionManagement = SessionManagement(database: database, sessions: sessions, audit: audit, logger: logger)
        let vault = tokenVault ?? TokenVault.ephemeral(random: random)
        self.tokenVault = vault
        socialFlows = SocialFlows(database: database, vault: vault, clock: clock, random: random)
        socialLinks = SocialLinks(database: database, vault: vault, mail: mail, audit: audit, clock: clock, logger: logger)
        apiTokens = APITokens(database: database, sessions: sessions, audit: audit, logger: logger)
        retention = Retention(database: database, policy: configuration.retention, clock: clock, ending: Retention.Ending(configuration))
        administration = Administration(database: database, validator: validator, hasher: hasher, sessions: sessions,
                                        lockout: lockout, audit: audit, deletion: deletion, clock: clock, logger: logger)
        groups = Groups(database: database, audit: audit, clock: clock, logger: logger)
        oneTimeCodes = OneTimeCodes(database: database, vault: vault, reauthentication: reauthentication, mail: mail, audit: audit,
                                    clock: clock, random: random, logger: logger)
        // Sign-in last: it asks SignInMethods, which knows every method (the one-time codes above).
        signInMethods = SignInMethods(database: database, audit: audit, clock: clock, oneTimeCodes: oneTimeCodes)
        passkeys = Passkeys(database: database, policy: configuration.passkeys, sessions: sessions, lockout: lockout, mail: mail,
                            audit: audit, clock: clock, random: random, logger: logger)
        openID = OpenIDGrants(database: database, policy: configuration.openID, sessionIdleTimeout: configuration.session.idleTimeout,
                              audit: audit, clock: clock, random: random, logger: logger, lockout: lockout)
        openIDClients = OpenIDClients(database: database, clock: clock, random: random, configured: configuredClients)
        secondFactor = SecondFactorSignIn(database: database, sessions: sessions, lockout: lockout, audit: audit, methods: signInMethods,
                                          policy: configuration.secondFactor, clock: clock, random: random, logger: logger, passkeys: passkeys)
        // Social sign-in and residences ask the second step of an account with a second factor.
        social = SocialSignIn(database: database, vault: vault, sessions: sessions, confirmation: confirmation, invitations: invitations,
                              validator: validator, hasher: hasher, lockout: lockout, mail: mail, audit: audit, clock: clock,
                              random: random, logger: logger, secondFactor: secondFactor)
        residences = Residences(database: database, apiTokens: apiTokens, invitations: invitations,
                                validator: validator, lockout: lockout, mail: mail, audit: audit, clock: clock, random: random,
                                logger: logger, lifetime: configuration.residenceLifetime, secondFactor: secondFactor)
        authentication = Authentication(database: database, hasher: hasher, sessions: sessions, lockout: lockout, audit: audit,
                                        secondFactor: secondFactor, confirmationRequired: configuration.mail.confirmationRequired, clock: clock, logger: logger)
        reminder = PasswordReminder(database: database, validator: validator, hasher: hasher, sessions: sessions, tokens: tokens,
                                    mail: mail, lockout: lockout, audit: audit, secondFactor: secondFactor, clock: clock, logger: logger,
                                    lifetime: configuration.mail.resetLifetime)
    }
}
