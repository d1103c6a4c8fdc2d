// ConfigReader.swift: reads the YAML config file and FRONTDOOR_* environment overrides into AppConfiguration.
//
// Keys: the key table (ConfigKeys+Table.swift: name, type, meaning; defaults are AppConfiguration's), plus the
// file-only lists `profile.fields`, `social.providers`, `oidc.clients` and `messages`. File: YAML, nested by section; environment:
// FRONTDOOR_<SECTION>_<KEY>, e.g. FRONTDOOR_DATABASE_PATH. `frontdoor config reference` prints the table.
// Durations: plain seconds or a number with s, m, h or d.
// Paths (database.path, templates.path, …; see ConfigPaths.swift) are made absolute: a relative one written in the file
// against the file's folder, a default or an environment value against the current directory.
import AccountCore
import AccountRules
import BrowserID
import Foundation
import IPAddresses
import OAuthClient
import Yams

/// A configuration problem, worded for the operator (names the key and the value).
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Turns a config file and the environment into an `AppConfiguration`.
public enum ConfigReader {
    /// Reads `file` (if given) then applies `environment` overrides; throws `ConfigError` naming the bad key. Relative
    /// paths are resolved against `file`'s folder or `currentDirectory` (see ConfigPaths).
    public static func read(file: String?, environment: [String: String],
                            currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> AppConfiguration {
        var values: [String: String] = [:]
        var profileFields: [AppConfiguration.ProfileFieldConfig] = []
        var providers: [ProviderConfiguration] = []
        var messages: [String: [String: String]] = [:]
        var clients: [OpenIDClient] = []
        let folder = file.map { ConfigPaths.folder(of: $0, currentDirectory: currentDirectory) }
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigError("cannot read config file \(file)")
            }
            (values, profileFields, providers, messages, clients) = try parseFile(yaml: text, folder: folder)
        }
        var fileKeys = Set(values.keys)
        for key in ConfigKeys.all.map(\.name) {
            let variable = "FRONTDOOR_" + key.replacingOccurrences(of: ".", with: "_").uppercased()
            if let value = environment[variable] { values[key] = value; fileKeys.remove(key) }
        }
        var configuration = AppConfiguration()
        configuration.profileFields = profileFields
        configuration.social.providers = providers
        configuration.languages.messages = messages
        configuration.openID.clients = clients
        for key in ConfigKeys.all {
            guard let value = values[key.name] else { continue }
            do { try key.apply(&configuration, value.trimmingCharacters(in: .whitespaces)) } catch let error as ConfigError {
                throw ConfigError("\(key.name): \(error.description) (got \"\(value)\")")
            }
        }
        ConfigPaths.resolve(&configuration, fileFolder: folder, fileKeys: fileKeys, currentDirectory: currentDirectory)
        try validate(configuration)
        configuration.basePath = normalizedBasePath(configuration.basePath)
        while configuration.publicURL.hasSuffix("/") { configuration.publicURL.removeLast() }
        return configuration
    }

    /// Flattens a YAML document into dotted keys (`session.lifetime`); unknown keys are errors.
    static func parse(yaml text: String) throws -> [String: String] { try parseFile(yaml: text).values }

    /// The document's dotted keys, the lists under `profile.fields` (see ProfileFieldsConfig) and `social.providers`
    /// (see SocialProvidersConfig; a relative `client_secret_file` is read from `folder`, the file's), and the `messages`
    /// overrides (see MessagesConfig) and the OpenID Connect clients under `oidc.clients` (see OpenIDClientsConfig; a
    /// relative `secret_file` is read from `folder` too), checked.
    static func parseFile(yaml text: String, folder: String? = nil) throws -> (values: [String: String], profileFields: [AppConfiguration.ProfileFieldConfig],
                                                        providers: [ProviderConfiguration], messages: [String: [String: String]],
                                                        clients: [OpenIDClient]) {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch { throw ConfigError("config file is not valid YAML: \(error)") }
        guard let node else { return ([:], [], [], [:], []) }
        guard let mapping = node.mapping else { throw ConfigError("config file must be a mapping of keys to values") }
        var values: [String: String] = [:]
        var profileFields: [AppConfiguration.ProfileFieldConfig] = []
        var providers: [ProviderConfiguration] = []
        var messages: [String: [String: String]] = [:]
        var clients: [OpenIDClient] = []
        let known = Set(ConfigKeys.all.map(\.name))
        func walk(_ mapping: Node.Mapping, prefix: String) throws {
            for (keyNode, valueNode) in mapping {
                let key = prefix + (keyNode.string ?? "")
                if key == ProfileFieldsConfig.key {
                    profileFields = try ProfileFieldsConfig.parse(valueNode)
                } else if key == SocialProvidersConfig.key {
                    providers = try SocialProvidersConfig.parse(valueNode, folder: folder)
                } else if key == MessagesConfig.key {
                    messages = try MessagesConfig.parse(valueNode)
                } else if key == OpenIDClientsConfig.key {
                    clients = try OpenIDClientsConfig.parse(valueNode, folder: folder)
                } else if let nested = valueNode.mapping {
                    try walk(nested, prefix: key + ".")
                } else if let scalar = valueNode.scalar {
                    guard known.contains(key) else { throw ConfigError("unknown config key \(key)") }
                    values[key] = scalar.string
                } else {
                    throw ConfigError("\(key): expected a single value")
                }
            }
        }
        try walk(mapping, prefix: "")
        return (values, profileFields, providers, messages, clients)
    }

    /// Checks the values against each other and their ranges.
    static func validate(_ c: AppConfiguration) throws {
        func require(_ ok: Bool, _ message: String) throws { if !ok { throw ConfigError(message) } }
        try require(c.basePath.isEmpty || c.basePath.hasPrefix("/"), "base_path must start with /")
        try require(!c.basePath.contains("?") && !c.basePath.contains("#") && !c.basePath.contains(" "), "base_path must be a plain path")
        try require(c.staticPath.isEmpty || c.staticPath.hasPrefix("/"), "static_path must start with /")
        try require((1...1024).contains(c.fastcgi.workers), "fastcgi.workers must be between 1 and 1024")
        try require(c.fastcgi.maxBodyBytes >= 1024, "fastcgi.max_body_bytes must be at least 1024")
        try require(c.fastcgi.socketMode <= 0o777, "fastcgi.socket_mode must be an octal mode such as 0660")
        try require(c.session.lifetime > 0 && c.session.idleTimeout > 0 && c.session.rememberLifetime > 0,
                    "session durations must be positive")
        try require(!c.session.cookieName.isEmpty && c.session.cookieName.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" },
                    "session.cookie_name may hold only letters, digits, _ and -")
        try require(c.password.minLength >= 1 && c.password.maxLength >= c.password.minLength && c.password.maxLength <= 4096,
                    "password.min_length and max_length must satisfy 1 <= min <= max <= 4096")
        // OWASP's argon2id floor: 7 MiB at 5 passes … 46 MiB at 1 pass (memory × passes ≥ 35 MiB), as ASVS 2.4 asks.
        try require(c.password.argon2Iterations >= 1 && c.password.argon2Parallelism >= 1 && c.password.argon2MemoryKiB >= 7168
                    && UInt64(c.password.argon2MemoryKiB) * UInt64(c.password.argon2Iterations) >= 35840
                    && c.password.argon2MemoryKiB >= 8 * c.password.argon2Parallelism,
                    "argon2 parameters too weak: argon2_memory_kib must be at least 7168 and argon2_memory_kib × argon2_iterations at least 35840 (for example 19456 × 2)")
        try require(c.identity.username == .off || !c.profileFields.contains { $0.name == "username" },
                    "profile.fields: a declared field named username clashes with identity.username's own field; "
                        + "rename it or keep identity.username off")
        try require(c.signUpLimit >= 0 && c.signUpWindow > 0, "signup_limit.max_per_address must be 0 or more and signup_limit.window positive")
        try require(c.database.maxSizeMB >= 0, "database.max_size_mb must be 0 (no cap) or a size in MiB")
        try require(c.database.url.isEmpty || c.database.url.hasPrefix("sqlite:") || c.database.postgresURL != nil,
                    "database.url must be sqlite:PATH or a postgresql:// URL")
        try require(!Self.urlHasPassword(c.database.url) && !PostgresURLRules.hasPassword(c.database.url),
                    "database.url must not hold a password: put it in database.password_file or FRONTDOOR_DATABASE_PASSWORD")
        try require(c.database.postgresURL.map { !PostgresURLRules.lacksTLS($0) } ?? true,
                    "database.url to another host may be read in clear: add sslmode=verify-full (or require) to it")
        try require((1...500).contains(c.database.poolSize), "database.pool_size must be between 1 and 500")
        try require((0...300).contains(c.database.sessionCacheMaxAge), "database.session_cache_max_age must be between 0s and 5m")
        try require((1...10_000_000).contains(c.database.sessionCacheSize), "database.session_cache_size must be between 1 and 10000000")
        try require(c.database.statementTimeout > 0 && c.database.connectTimeout > 0,
                    "database.statement_timeout and database.connect_timeout must be longer than 0")
        try require(c.database.poolWait > 0 && c.database.gateReserve >= 0,
                    "database.pool_wait must be longer than 0 and database.gate_reserve 0 or more")
        try require(c.publicURL.hasPrefix("http://") || c.publicURL.hasPrefix("https://"), "public_url must start with http:// or https://")
        let fromAddress = MailEncoding.mailbox(c.mail.from).address   // the display name may be any text (it is encoded)
        try require(!c.mail.from.contains(where: \.isNewline) && fromAddress.contains("@") && MailMessage.isUsableAddress(fromAddress),
                    "mail.from must be an address such as Frontdoor <no-reply@example.com>")
        try require(c.mail.transport == .outbox || c.mail.smtpURL.hasPrefix("smtp://") || c.mail.smtpURL.hasPrefix("smtps://"),
                    "mail.smtp_url must start with smtp:// or smtps:// when mail.transport is smtp")
        try require(c.mail.transport == .outbox || !c.mail.smtpURL.hasPrefix("smtp://") || c.mail.smtpStartTLS
                    || ProviderURL.isLoopback(URLComponents(string: c.mail.smtpURL)?.host ?? ""),
                    "mail.smtp_url smtp:// to another host sends reset links in clear: use smtps:// or set mail.smtp_starttls: true")
        try require(!Self.urlHasPassword(c.mail.smtpURL),
                    "mail.smtp_url must not hold a password: put it in mail.smtp_password or FRONTDOOR_MAIL_SMTP_PASSWORD")
        try require(c.mail.transport == .outbox || c.mail.smtpCAFile.isEmpty || FileManager.default.isReadableFile(atPath: c.mail.smtpCAFile),
                    "mail.smtp_ca_file \(c.mail.smtpCAFile) cannot be read")
        let cookie = c.session.cookieName
        try require(!(cookie.hasPrefix("__Host-") || cookie.hasPrefix("__Secure-")) || c.session.secureCookie == .always,
                    "session.cookie_name with a __Host- or __Secure- prefix needs session.secure_cookie: always")
        try require(!cookie.hasPrefix("__Host-") || c.session.cookieDomain.isEmpty,
                    "session.cookie_name with the __Host- prefix cannot have a session.cookie_domain")
        try require(c.confirmation.lifetime > 0 && c.reminder.lifetime > 0 && c.mail.sendInterval > 0 && c.mail.timeout > 0,
                    "confirmation, reminder and mail durations must be positive")
        // A mail being sent is claimed for MailQueue.claimLease; a send that could outlast it would let another host's
        // sender take the same mail.
        try require(c.mail.timeout * 2 <= MailQueue.claimLease, "mail.timeout must be at most \(Int(MailQueue.claimLease / 2))s")
        let bid = c.browserID
        try require(bid.certificateLifetime >= 120 && bid.certificateLifetime <= 86400
                    && bid.ephemeralCertificateLifetime >= 120 && bid.ephemeralCertificateLifetime <= bid.certificateLifetime,
                    "browserid certificate lifetimes must be between 2m and 24h (ephemeral no longer than the other)")
        try require(bid.verifyLeeway <= 60, "browserid.verify_leeway must be at most 60s")
        try require(bid.fetchTimeout > 0 && bid.fetchTimeout <= 60, "browserid.fetch_timeout must be between 1s and 60s")
        try require(bid.issuer.allSatisfy { $0.isLetter || $0.isNumber || ".-:[]".contains($0) },
                    "browserid.issuer must be a host name, with :port if not the default")
        try require(bid.httpHostMap.map { $0.values.allSatisfy(ProviderURL.isLoopback) } ?? false,
                    "browserid.http_hosts must list name=address pairs with loopback addresses (127.0.0.1:PORT, localhost:PORT, [::1]:PORT)")
        try require(bid.fetchFailureCache >= 0 && bid.fetchFailureCache <= 3600, "browserid.fetch_failure_cache must be at most 1h")
        try require(bid.verifyDeadline >= 1 && bid.verifyDeadline <= 60, "browserid.verify_deadline must be between 1s and 60s")
        try require((1...10).contains(bid.verifyFetches), "browserid.verify_fetches must be between 1 and 10")
        try require((1...1024).contains(bid.fetchConcurrency), "browserid.fetch_concurrency must be between 1 and 1024")
        try require(bid.fetchAllowedHostList.allSatisfy(HTTPSupportDocumentFetcher.isIssuer),
                    "browserid.fetch_allowed_hosts must list host names or addresses, with :port if not 443 (idp.example.com, [2001:db8::1]:8443)")
        try require(bid.httpHostMap.map { Set($0.keys.map { $0.lowercased() }).isSubset(of: bid.fetchAllowedHostList) } ?? true,
                    "browserid.http_hosts names must also be listed in browserid.fetch_allowed_hosts")
        try require(!bid.legacyAlgorithmList.contains("RS64"), "browserid.legacy_algorithms: RS64 (512-bit RSA) is never accepted")
        try require(bid.legacyAlgorithmList.allSatisfy(VerifierPolicy.legacyAlgorithms.contains),
                    "browserid.legacy_algorithms may list RS128, DS128 and DS256")
        try require(c.lockout.window > 0 && c.lockout.duration > 0 && c.lockout.addressWindow > 0 && c.lockout.addressDuration > 0,
                    "lockout durations must be positive")
        try require(c.inviteLifetime > 0, "invite.lifetime must be positive")
        try require(c.session.reauthenticateAfter > 0, "session.reauthenticate_after must be positive")
        try require(c.admin.reauthenticateAfter > 0, "admin.reauthenticate_after must be positive")
        try require(GroupName.validator().validate(["group": c.admin.group]).isEmpty,
                    "admin.group must be a group name (letters, digits and - _ . : @ + /)")
        try require((1...10).contains(c.session.maxAccounts), "session.max_accounts must be between 1 and 10")
        let hostCharacters = { (text: String) in text.allSatisfy { $0.isLetter || $0.isNumber || ".-:[]".contains($0) } }
        try require(hostCharacters(c.session.cookieDomain), "session.cookie_domain must be a domain such as example.com")
        try require(c.redirect.allowedHostList.allSatisfy(hostCharacters),
                    "redirect.allowed_hosts must list host names such as app.example.com or .example.com")
        try require(c.logoURL.isEmpty || c.logoURL.hasPrefix("/") || c.logoURL.hasPrefix("https://") || c.logoURL.hasPrefix("http://"),
                    "logo_url must be a path such as /static/logo.svg or an http(s) URL")
        try require((32...128).contains(c.client.ipv6Prefix), "client.ipv6_prefix must be between 32 and 128 (64: a client's /64)")
        for (key, list) in [("client.trusted_proxies", c.client.trustedProxies), ("metrics.allowed_addresses", c.metrics.allowedAddresses),
                            ("social.token_allowed_addresses", c.social.tokenAllowedAddresses)] {
            do { _ = try AddressList(parsing: list) } catch let error as InvalidAddress {
                throw ConfigError("\(key): \"\(error.entry)\" is neither an address nor a CIDR range such as 10.0.0.0/8 or 2001:db8::/32")
            }
        }
        try validateRetention(c)
        try validateOpenID(c)
        try MessagesConfig.validate(c.languages, profileFields: c.profileFields.map(\.name))
        try require(ConfigKeys.logLevels.contains(c.log.level), "log.level must be one of \(ConfigKeys.logLevels.joined(separator: ", "))")
        try require(ConfigKeys.logFormats.contains(c.log.format), "log.format must be one of \(ConfigKeys.logFormats.joined(separator: ", "))")
    }

    /// `/account/` → `/account`, `/` → `` (mounted at the root).
    static func normalizedBasePath(_ path: String) -> String {
        var path = path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The effective configuration as YAML, every key with its value (for `frontdoor config check`). With `defaults`
    /// (`config check --verbose`), a value that differs from its default is followed by `# default: …`.
    public static func render(_ configuration: AppConfiguration, defaults: AppConfiguration? = nil) -> String {
        var lines: [String] = []
        var section = ""
        for key in ConfigKeys.all {
            let parts = key.name.split(separator: ".", maxSplits: 1).map(String.init)
            let raw = key.read(configuration)
            // Numbers stay bare, except those with a leading zero (a mode such as 0660), which YAML 1.2 would read as 660.
            let bare = Int(raw) != nil && !(raw.hasPrefix("0") && raw.count > 1)
            let value = bare ? raw : "\"" + raw.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            var note = ""
            if let original = defaults.map(key.read), original != raw { note = "   # default: " + (original.isEmpty ? "empty" : original) }
            if parts.count == 1 {
                lines.append("\(parts[0]): \(value)" + note)
            } else {
                if parts[0] != section { section = parts[0]; lines.append("\(section):") }
                lines.append("  \(parts[1]): \(value)" + note)
            }
        }
        lines += ProfileFieldsConfig.render(configuration.profileFields)
        lines += SocialProvidersConfig.render(configuration.social.providers)
        lines += OpenIDClientsConfig.render(configuration.openID.clients)
        lines += MessagesConfig.render(configuration.languages.messages)
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ConfigReader {
    /// True when a `scheme://user:password@…` URL or a `password=` parameter carries a password.
    static func urlHasPassword(_ url: String) -> Bool {
        // Percent-decoded too: libpq and libcurl decode a URL's keywords, so `pass%77ord=` is a password.
        if (url.removingPercentEncoding ?? url).range(of: "password=", options: .caseInsensitive) != nil { return true }
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return false }
        return url[scheme.upperBound..<at].contains(":")
    }
}
