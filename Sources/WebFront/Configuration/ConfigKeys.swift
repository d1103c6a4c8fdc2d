// ConfigKeys.swift: the table of config keys: how each is parsed from text and written back.
import AccountCore
import Foundation

/// One config key: its dotted name, how to set it from text, how to show it.
struct ConfigKey: Sendable {
    let name: String
    let apply: @Sendable (inout AppConfiguration, String) throws -> Void
    let read: @Sendable (AppConfiguration) -> String
}

enum ConfigKeys {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    static func text(_ name: String, _ path: WritableKeyPath<AppConfiguration, String> & Sendable) -> ConfigKey {
        ConfigKey(name: name, apply: { $0[keyPath: path] = $1 }, read: { $0[keyPath: path] })
    }

    static func integer(_ name: String, _ path: WritableKeyPath<AppConfiguration, Int> & Sendable) -> ConfigKey {
        ConfigKey(name: name, apply: { $0[keyPath: path] = try parseInteger($1) }, read: { String($0[keyPath: path]) })
    }

    static func unsigned(_ name: String, _ path: WritableKeyPath<AppConfiguration, UInt32> & Sendable) -> ConfigKey {
        ConfigKey(name: name, apply: { c, v in
            guard let n = UInt32(exactly: try parseInteger(v)) else { throw ConfigError("must be a positive whole number") }
            c[keyPath: path] = n
        }, read: { String($0[keyPath: path]) })
    }

    static func duration(_ name: String, _ path: WritableKeyPath<AppConfiguration, TimeInterval> & Sendable) -> ConfigKey {
        ConfigKey(name: name, apply: { $0[keyPath: path] = try parseDuration($1) }, read: { formatDuration($0[keyPath: path]) })
    }

    static func flag(_ name: String, _ path: WritableKeyPath<AppConfiguration, Bool> & Sendable) -> ConfigKey {
        ConfigKey(name: name, apply: { c, v in
            switch v.lowercased() {
            case "true", "yes", "on", "1": c[keyPath: path] = true
            case "false", "no", "off", "0": c[keyPath: path] = false
            default: throw ConfigError("must be true or false")
            }
        }, read: { $0[keyPath: path] ? "true" : "false" })
    }

    static let all: [ConfigKey] = [
        text("site_name", \.siteName),
        text("logo_url", \.logoURL),
        text("base_path", \.basePath),
        text("static_path", \.staticPath),
        text("public_url", \.publicURL),
        text("database.path", \.database.path),
        integer("database.max_size_mb", \.database.maxSizeMB),
        text("database.url", \.database.url),
        text("database.password_file", \.database.passwordFile),
        integer("database.pool_size", \.database.poolSize),
        duration("database.statement_timeout", \.database.statementTimeout),
        duration("database.connect_timeout", \.database.connectTimeout),
        duration("database.session_cache_max_age", \.database.sessionCacheMaxAge),
        integer("database.session_cache_size", \.database.sessionCacheSize),
        text("templates.path", \.templates.path),
        text("fastcgi.socket", \.fastcgi.socket),
        ConfigKey(name: "fastcgi.socket_mode", apply: { c, v in
            guard let mode = UInt32(v, radix: 8), mode <= 0o777 else { throw ConfigError("must be an octal mode such as 0660") }
            c.fastcgi.socketMode = mode
        }, read: { "0" + String($0.fastcgi.socketMode, radix: 8) }),
        integer("fastcgi.workers", \.fastcgi.workers),
        integer("fastcgi.max_body_bytes", \.fastcgi.maxBodyBytes),
        text("session.cookie_name", \.session.cookieName),
        duration("session.lifetime", \.session.lifetime),
        duration("session.idle_timeout", \.session.idleTimeout),
        duration("session.remember_lifetime", \.session.rememberLifetime),
        ConfigKey(name: "session.secure_cookie", apply: { c, v in
            guard let mode = AppConfiguration.SecureCookie(rawValue: v) else { throw ConfigError("must be auto or always") }
            c.session.secureCookie = mode
        }, read: { $0.session.secureCookie.rawValue }),
        text("session.cookie_domain", \.session.cookieDomain),
        duration("session.reauthenticate_after", \.session.reauthenticateAfter),
        integer("session.max_accounts", \.session.maxAccounts),
        integer("password.min_length", \.password.minLength),
        integer("password.max_length", \.password.maxLength),
        text("password.blocklist_file", \.password.blocklistFile),
        unsigned("password.argon2_memory_kib", \.password.argon2MemoryKiB),
        unsigned("password.argon2_iterations", \.password.argon2Iterations),
        unsigned("password.argon2_parallelism", \.password.argon2Parallelism),
        flag("confirmation.required", \.confirmation.required),
        duration("confirmation.lifetime", \.confirmation.lifetime),
        duration("reminder.lifetime", \.reminder.lifetime),
        ConfigKey(name: "mail.transport", apply: { c, v in
            guard let kind = AppConfiguration.MailTransportKind(rawValue: v) else { throw ConfigError("must be outbox or smtp") }
            c.mail.transport = kind
        }, read: { $0.mail.transport.rawValue }),
        text("mail.from", \.mail.from),
        text("mail.outbox", \.mail.outbox),
        text("mail.smtp_url", \.mail.smtpURL),
        flag("mail.smtp_starttls", \.mail.smtpStartTLS),
        text("mail.smtp_username", \.mail.smtpUsername),
        ConfigKey(name: "mail.smtp_password", apply: { $0.mail.smtpPassword = $1 },
                  read: { $0.mail.smtpPassword.isEmpty ? "" : "(set, not shown)" }),
        text("mail.smtp_ca_file", \.mail.smtpCAFile),
        duration("mail.timeout", \.mail.timeout),
        duration("mail.retry_base", \.mail.retryBase),
        duration("mail.throttle", \.mail.throttle),
        duration("mail.send_interval", \.mail.sendInterval),
        text("browserid.issuer", \.browserID.issuer),
        duration("browserid.certificate_lifetime", \.browserID.certificateLifetime),
        duration("browserid.ephemeral_certificate_lifetime", \.browserID.ephemeralCertificateLifetime),
        text("browserid.trusted_issuers", \.browserID.trustedIssuers),
        text("browserid.http_hosts", \.browserID.httpHosts),
        duration("browserid.verify_leeway", \.browserID.verifyLeeway),
        duration("browserid.fetch_timeout", \.browserID.fetchTimeout),
        duration("browserid.fetch_cache", \.browserID.fetchCache),
        duration("browserid.fetch_failure_cache", \.browserID.fetchFailureCache),
        text("browserid.fetch_allowed_hosts", \.browserID.fetchAllowedHosts),
        flag("browserid.fetch_only_allowed_hosts", \.browserID.fetchOnlyAllowedHosts),
        text("browserid.legacy_algorithms", \.browserID.legacyAlgorithms),
        text("browserid.allowed_origins", \.browserID.allowedOrigins),
        text("log.level", \.log.level),
        ConfigKey(name: "signup", apply: { c, v in
            guard let mode = SignUpPolicy.Mode(rawValue: v) else { throw ConfigError("must be open, invite or closed") }
            c.signUp = mode
        }, read: { $0.signUp.rawValue }),
        duration("invite.lifetime", \.inviteLifetime),
        integer("signup_limit.max_per_address", \.signUpLimit),
        duration("signup_limit.window", \.signUpWindow),
        integer("lockout.max_failures", \.lockout.maxFailures),
        duration("lockout.window", \.lockout.window),
        duration("lockout.duration", \.lockout.duration),
        integer("lockout.address_max_failures", \.lockout.addressMaxFailures),
        duration("lockout.address_window", \.lockout.addressWindow),
        duration("lockout.address_duration", \.lockout.addressDuration),
        text("redirect.allowed_hosts", \.redirect.allowedHosts),
        text("client.trusted_proxies", \.client.trustedProxies),
        integer("client.ipv6_prefix", \.client.ipv6Prefix),
        flag("metrics.enabled", \.metrics.enabled),
        text("metrics.allowed_addresses", \.metrics.allowedAddresses),
        text("metrics.host", \.metrics.host),
        text("social.token_key_file", \.social.tokenKeyFile),
        text("social.token_allowed_addresses", \.social.tokenAllowedAddresses),
        duration("social.http_timeout", \.social.httpTimeout),
        flag("api.enabled", \.api.enabled),
        duration("api.token_lifetime", \.api.tokenLifetime),
        duration("api.residence_lifetime", \.api.residenceLifetime),
        text("languages.available", \.languages.available),
        text("languages.default", \.languages.defaultLanguage),
        duration("retention.audit", \.retention.audit),
        duration("retention.sent_mail", \.retention.sentMail),
        duration("retention.prune_interval", \.retention.pruneInterval),
    ]

    static func parseInteger(_ text: String) throws -> Int {
        guard let n = Int(text), n >= 0 else { throw ConfigError("must be a whole number") }
        return n
    }

    /// "90" or "90s", "15m", "12h", "30d" → seconds.
    static func parseDuration(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = text, factor = 1.0
        if let last = text.last, let unit = units[last] { number = String(text.dropLast()); factor = unit }
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw ConfigError("must be a duration such as 90s, 15m, 12h or 30d")
        }
        return value * factor
    }

    /// Seconds in the largest unit that divides them exactly.
    static func formatDuration(_ seconds: TimeInterval) -> String {
        for (unit, size) in [("d", 86400.0), ("h", 3600), ("m", 60)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
