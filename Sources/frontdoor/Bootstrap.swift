// Bootstrap.swift: builds the application from the configuration: logging, database, services, templates, CSRF key,
// BrowserID (the root key is made here on first start), the OpenID Connect provider (its first signing key too).
import AccountCore
import AccountRules
import Foundation
import Logging
import WebFront

enum Bootstrap {
    /// Logging to stderr at the configured level, as text or JSON lines (`log.format`; see LogFormat), once per process.
    /// Every line logged inside a request carries its request id and client address (RequestLog.metadataProvider).
    static func makeLogger(_ configuration: AppConfiguration) -> Logger {
        let level = Logger.Level(rawValue: configuration.log.level) ?? .info
        let json = configuration.log.format == "json"
        LoggingSystem.bootstrap({ label, provider in
            if json {
                var handler = JSONLogHandler(metadataProvider: provider)
                handler.logLevel = level
                return handler
            }
            var handler = TextLogHandler(label: label, metadataProvider: provider)
            handler.logLevel = level
            return handler
        }, metadataProvider: RequestLog.metadataProvider)
        return Logger(label: "frontdoor")
    }

    /// Opens the database and assembles the web front. Only `serve` (`migrating`) may create or migrate the database;
    /// every other command needs it there and up to date.
    static func makeApp(_ configuration: AppConfiguration, migrating: Bool = false, sessionCache: Bool? = nil) throws -> Frontdoor {
        let logger = makeLogger(configuration)
        // `serve` (the only caller that migrates) keeps a cache of session lookups on PostgreSQL, unless it answers one
        // CGI request (`sessionCache: false`); commands do not. Such a request on PostgreSQL opens no listener and
        // migrates nothing either: a process per request would otherwise take the migration lock whenever a step is
        // pending, from a web request and under its statement timeout; there, `frontdoor migrate` runs before the web
        // server sends requests. On SQLite the first request still makes the file.
        let cgiOnPostgres = migrating && sessionCache == false && configuration.database.postgresURL != nil
        let database = try openDatabase(configuration, migrating: migrating && !cgiOnPostgres, sessionCache: sessionCache ?? migrating)
        // The declared profile fields (`profile.fields`); those with `sign_up` are checked with the sign-up form. Field
        // names in validation messages are worded at display, in the page's language (MessageCatalog.displayName).
        let profileFields = configuration.declaredProfileFields
        let validator = AccountForms.signUp(passwordLength: configuration.password.minLength...configuration.password.maxLength,
                                            commonPasswords: try commonPasswords(configuration), extra: profileFields.filter(\.onSignUp).map(\.field))
        let renderer: PageRenderer
        do { renderer = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration)) } catch {
            throw CommandFailure("frontdoor: \(error)")
        }
        // The providers' tokens are sealed with the key in `social.token_key_file` (made here on the first host's first
        // start, 0600); every host of the database must hold the same key, checked against the database.
        let vault: TokenVault
        do { vault = try TokenVault.loadShared(path: configuration.social.tokenKeyFile, database: database) } catch {
            throw CommandFailure("frontdoor: cannot use social.token_key_file \(configuration.social.tokenKeyFile): \(error)")
        }
        // The authenticator names of `passkeys.authenticator_names`, read once here.
        var core = configuration.core
        do { core.passkeys.authenticatorNames = try configuration.authenticatorNames() } catch { throw CommandFailure("frontdoor: \(error)") }
        let services = AccountServices(database: database, configuration: core, validator: validator,
                                       composer: TemplateMailComposer(renderer: renderer, configuration: configuration),
                                       transport: try makeTransport(configuration), logger: logger, profileFields: profileFields,
                                       tokenVault: vault, openIDClients: configuration.openID.clients)
        let csrfKey = try database.secret(named: "csrf", random: services.random)
        let browserID = BrowserIDServices.make(configuration: configuration, database: database, clock: services.clock, logger: logger)
        do { try browserID.provider.ensureKey() } catch {
            throw CommandFailure("frontdoor: cannot create the BrowserID root key: \(error)")
        }
        let openID = OpenIDServices.make(configuration: configuration, database: database, clock: services.clock)
        do { _ = try openID?.keys.ensureKey() } catch {
            throw CommandFailure("frontdoor: cannot create the OpenID Connect signing key: \(error)")
        }
        let site = Site(configuration: configuration, renderer: renderer, csrf: CSRF(key: csrfKey), logger: logger,
                        browserID: browserID, social: SocialServices.make(configuration: configuration), openID: openID)
        return Frontdoor(site: site, services: services)
    }

    /// The configured mail transport. The SMTP password is `mail.smtp_password_file`'s first line when that is set (read
    /// and refused as database.password_file is), else `mail.smtp_password`.
    static func makeTransport(_ configuration: AppConfiguration) throws -> any MailTransport {
        switch configuration.mail.transport {
        case .outbox:
            return OutboxTransport(folder: configuration.mail.outbox)
        case .smtp:
            let mail = configuration.mail
            let password = mail.smtpPasswordFile.isEmpty ? mail.smtpPassword
                : try passwordFile(mail.smtpPasswordFile, named: "mail.smtp_password_file")
            return SMTPTransport(settings: .init(url: mail.smtpURL, startTLS: mail.smtpStartTLS, username: mail.smtpUsername,
                                                 password: password, timeout: Int(mail.timeout), caFile: mail.smtpCAFile))
        }
    }

    /// The built-in common passwords plus the lines of `password.blocklist_file`, when set.
    static func commonPasswords(_ configuration: AppConfiguration) throws -> CommonPasswords {
        let path = configuration.password.blocklistFile
        guard !path.isEmpty else { return .builtIn }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure("frontdoor: cannot read password.blocklist_file \(path)")
        }
        return CommonPasswords(adding: text.split(whereSeparator: \.isNewline).map(String.init))
    }

    /// The database `database.url` names (PostgreSQL), else the SQLite file at `database.path`: created or migrated
    /// when `migrating` (`migrate`, `serve`), else only opened when it is there and (with `requireCurrent`) up to date;
    /// one line naming the database otherwise. `password`, when given, is PostgreSQL's instead of the configured one
    /// (`db copy`'s --from/--to-password-file).
    static func openDatabase(_ configuration: AppConfiguration, migrating: Bool, requireCurrent: Bool = true,
                             password: String? = nil, sessionCache: Bool = false) throws -> AppDatabase {
        if let url = configuration.database.postgresURL {
            return try openPostgres(url: url, configuration, migrating: migrating, requireCurrent: requireCurrent, password: password,
                                    sessionCache: sessionCache)
        }
        let path = configuration.database.sqlitePath, maxSize = configuration.database.maxSizeMB
        do {
            return try migrating ? AppDatabase.open(path: path, maxSizeMB: maxSize)
                : AppDatabase.openExisting(path: path, maxSizeMB: maxSize, requireCurrent: requireCurrent)
        } catch let error as DatabaseNotReady {
            throw CommandFailure("frontdoor: \(error)")
        } catch {
            throw CommandFailure("frontdoor: cannot open database \(path): \(error)")
        }
    }

    /// Connects to PostgreSQL (the pool's first connection), then migrates or checks the schema.
    static func openPostgres(url: String, _ configuration: AppConfiguration, migrating: Bool, requireCurrent: Bool,
                             password: String? = nil, sessionCache: Bool = false) throws -> AppDatabase {
        let shown = DatabaseURL.redacted(url)
        var settings = PostgresSettings(url: url, password: try password ?? databasePassword(configuration), poolSize: configuration.database.poolSize,
                                        statementTimeout: configuration.database.statementTimeout,
                                        connectTimeout: configuration.database.connectTimeout,
                                        sessionCacheMaxAge: sessionCache ? configuration.database.sessionCacheMaxAge : 0,
                                        sessionCacheSize: configuration.database.sessionCacheSize)
        settings.poolWait = configuration.database.poolWait
        settings.gateReserve = configuration.database.gateReserve
        let database: AppDatabase
        do {
            database = AppDatabase(backend: try PostgresBackend(settings: settings))
        } catch {
            throw CommandFailure("frontdoor: cannot connect to \(shown): \(DatabaseURL.reason(error))")
        }
        do {
            // Only when a step is pending (or the check failed: two first starts' bookkeeping tables can collide, which
            // migrate() handles): migrate() takes an advisory lock per step, too much for every CGI request.
            if migrating, (try? database.pendingMigrations())?.isEmpty != true { try database.migrate() }
            let pending = try database.pendingMigrations()
            if requireCurrent, !pending.isEmpty {
                throw CommandFailure("frontdoor: database \(shown) needs `frontdoor migrate` first (pending: \(pending.joined(separator: ", ")))")
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("frontdoor: database \(shown): \(DatabaseURL.reason(error))")
        }
        return database
    }

    /// The PostgreSQL password: `database.password_file`'s first line, else FRONTDOOR_DATABASE_PASSWORD, else none.
    static func databasePassword(_ configuration: AppConfiguration) throws -> String? {
        let file = configuration.database.passwordFile
        guard !file.isEmpty else { return ProcessInfo.processInfo.environment["FRONTDOOR_DATABASE_PASSWORD"] }
        return try passwordFile(file, named: "database.password_file")
    }

    /// The first line of the password file `file` (`named` as the operator gave it, for the message).
    /// A file others may read is refused (as a loose social.token_key_file is): the password would be anyone's.
    static func passwordFile(_ file: String, named: String) throws -> String {
        var info = stat()
        if stat(file, &info) == 0, info.st_mode & 0o007 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw CommandFailure("frontdoor: \(named) \(file): mode \(mode) lets others read it; make it 600 (chmod 600 \(file))")
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw CommandFailure("frontdoor: cannot read \(named) \(file)")
        }
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}
