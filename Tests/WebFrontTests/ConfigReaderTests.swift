import AccountCore
import AccountRules
import Foundation
import IPAddresses
import OAuthClient
import Testing
@testable import WebFront

struct ConfigReaderTests {
    @Test func withoutFileOrEnvironmentEveryKeyHasItsDefault() throws {
        let config = try ConfigReader.read(file: nil, environment: [:], currentDirectory: "/srv/here")
        var defaults = AppConfiguration()   // its paths, relative, taken from the current directory
        defaults.database.path = "/srv/here/var/frontdoor.sqlite"
        defaults.templates.path = "/srv/here/templates"
        defaults.mail.outbox = "/srv/here/var/outbox"
        defaults.social.tokenKeyFile = "/srv/here/var/social-tokens.key"
        #expect(config == defaults)
        #expect(config.basePath == "/account")
        #expect(config.effectiveStaticPath == "/account/static")
        #expect(config.session.lifetime == 12 * 3600)
        #expect(config.fastcgi.socketMode == 0o660)
    }

    @Test func yamlSectionsSetTheirKeys() throws {
        let values = try ConfigReader.parse(yaml: """
            site_name: Example
            base_path: /auth/
            session:
              lifetime: 2h
              idle_timeout: 90
              secure_cookie: always
            fastcgi:
              socket_mode: "0666"
              workers: 3
            """)
        #expect(values["session.lifetime"] == "2h")
        #expect(values["fastcgi.socket_mode"] == "0666")
        let config = try read(values)
        #expect(config.siteName == "Example")
        #expect(config.basePath == "/auth")
        #expect(config.session.lifetime == 7200)
        #expect(config.session.idleTimeout == 90)
        #expect(config.session.secureCookie == .always)
        #expect(config.fastcgi.socketMode == 0o666)
        #expect(config.fastcgi.workers == 3)
    }

    @Test func environmentOverridesTheFile() throws {
        let config = try ConfigReader.read(file: nil, environment: [
            "FRONTDOOR_DATABASE_PATH": "/tmp/x.sqlite", "FRONTDOOR_SESSION_IDLE_TIMEOUT": "15m", "FRONTDOOR_BASE_PATH": "/",
        ])
        #expect(config.database.path == "/tmp/x.sqlite")
        #expect(config.session.idleTimeout == 900)
        #expect(config.basePath == "")
    }

    @Test(arguments: [
        ("FRONTDOOR_FASTCGI_WORKERS", "zero", "fastcgi.workers"),
        ("FRONTDOOR_FASTCGI_WORKERS", "0", "fastcgi.workers"),
        ("FRONTDOOR_SESSION_LIFETIME", "soon", "session.lifetime"),
        ("FRONTDOOR_FASTCGI_SOCKET_MODE", "999", "fastcgi.socket_mode"),
        ("FRONTDOOR_SESSION_SECURE_COOKIE", "sometimes", "session.secure_cookie"),
        ("FRONTDOOR_LOG_LEVEL", "loud", "log.level"),
        ("FRONTDOOR_BASE_PATH", "account", "base_path"),
        ("FRONTDOOR_PASSWORD_MIN_LENGTH", "200", "password.min_length"),
        ("FRONTDOOR_SIGNUP", "sometimes", "signup"),
        ("FRONTDOOR_LOCKOUT_MAX_FAILURES", "-1", "lockout.max_failures"),
        ("FRONTDOOR_LOCKOUT_DURATION", "0", "lockout durations"),
        ("FRONTDOOR_SESSION_COOKIE_DOMAIN", "example.com; Secure", "session.cookie_domain"),
        ("FRONTDOOR_REDIRECT_ALLOWED_HOSTS", "app.example.com, evil/path", "redirect.allowed_hosts"),
        ("FRONTDOOR_METRICS_ENABLED", "maybe", "metrics.enabled"),
        ("FRONTDOOR_MAIL_TIMEOUT", "10m", "mail.timeout"),
        ("FRONTDOOR_DATABASE_SESSION_CACHE_MAX_AGE", "1h", "database.session_cache_max_age"),
        ("FRONTDOOR_DATABASE_SESSION_CACHE_SIZE", "0", "database.session_cache_size"),
        ("FRONTDOOR_LOG_FORMAT", "xml", "log.format"),
    ])
    func aBadValueIsRefusedNamingItsKey(variable: String, value: String, key: String) {
        #expect {
            _ = try ConfigReader.read(file: nil, environment: [variable: value])
        } throws: { error in
            (error as? ConfigError)?.description.contains(key) == true
        }
    }

    /// OWASP ASVS floors the config holds an operator to: argon2id no weaker than OWASP's pairs (2.4), mail that carries
    /// reset links not in clear to another host (2.5.1), and the cookie prefixes' own rules (3.4.4).
    @Test(arguments: [
        ["FRONTDOOR_PASSWORD_ARGON2_MEMORY_KIB": "1024"],
        ["FRONTDOOR_PASSWORD_ARGON2_MEMORY_KIB": "12288", "FRONTDOOR_PASSWORD_ARGON2_ITERATIONS": "2"],
        ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://mail.example.com:587"],
        ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://127.mail.example.com"],
        ["FRONTDOOR_SESSION_COOKIE_NAME": "__Host-frontdoor"],
        ["FRONTDOOR_SESSION_COOKIE_NAME": "__Secure-frontdoor"],
        ["FRONTDOOR_SESSION_COOKIE_NAME": "__Host-frontdoor", "FRONTDOOR_SESSION_SECURE_COOKIE": "always",
         "FRONTDOOR_SESSION_COOKIE_DOMAIN": "example.com"],
    ])
    func weakHashingMailInClearAndMisusedCookiePrefixesAreRefused(environment: [String: String]) {
        #expect(throws: ConfigError.self) { try ConfigReader.read(file: nil, environment: environment) }
    }

    @Test func theStrongerVariantsOfThoseAreAccepted() throws {
        for environment in [
            ["FRONTDOOR_PASSWORD_ARGON2_MEMORY_KIB": "12288", "FRONTDOOR_PASSWORD_ARGON2_ITERATIONS": "3"],
            ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://mail.example.com:587", "FRONTDOOR_MAIL_SMTP_STARTTLS": "true"],
            ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtps://mail.example.com"],
            ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://127.0.0.1:25"],
            ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://[::1]:25"],
            ["FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://localhost"],
            ["FRONTDOOR_SESSION_COOKIE_NAME": "__Host-frontdoor", "FRONTDOOR_SESSION_SECURE_COOKIE": "always"],
        ] {
            _ = try ConfigReader.read(file: nil, environment: environment)
        }
    }

    @Test func unknownKeysAndBadYamlAreRefused() {
        #expect(throws: ConfigError.self) { try ConfigReader.parse(yaml: "sesion:\n  lifetime: 1h\n") }
        #expect(throws: ConfigError.self) { try ConfigReader.parse(yaml: "site_name: [a\n") }
        #expect(throws: ConfigError.self) { try ConfigReader.parse(yaml: "- a\n- b\n") }
        #expect(throws: ConfigError.self) { try ConfigReader.read(file: "/nonexistent/frontdoor.yml", environment: [:]) }
    }

    @Test func theOperatorSectionsHaveTheirDefaultsAndReachTheCore() throws {
        let values = try ConfigReader.parse(yaml: """
            signup: invite
            invite:
              lifetime: 2d
            lockout:
              max_failures: 3
              address_window: 5m
            redirect:
              allowed_hosts: "app.example.com, .example.org"
            client:
              trusted_proxies: 10.0.0.1
            metrics:
              allowed_addresses: 10.1.1.1
            """)
        let config = try read(values)
        #expect(config.core.signUp == SignUpPolicy(mode: .invite, inviteLifetime: 2 * 86400))
        #expect(config.core.lockout == LockoutPolicy(maxFailures: 3, addressWindow: 300))
        #expect(config.redirect.allowedHostList == ["app.example.com", ".example.org"])
        #expect(config.client.trustedProxyList.ranges.map(\.description) == ["10.0.0.1"])
        #expect(config.metrics.allowedAddressList.ranges.map(\.description) == ["10.1.1.1"])
        #expect(AppConfiguration().core.lockout == .default)
        #expect(AppConfiguration().metrics.allowedAddressList.ranges.map(\.description) == ["127.0.0.1", "::1"])
    }

    @Test(arguments: ["client.trusted_proxies", "metrics.allowed_addresses", "social.token_allowed_addresses"])
    func addressListsTakeRangesAndRefuseWhatIsNoAddress(key: String) throws {
        let ranges = try read([key: "10.0.0.0/8, 2001:db8::/32, ::1"])
        let list = [ranges.client.trustedProxyList, ranges.metrics.allowedAddressList, ranges.social.tokenAllowedAddressList]
        #expect(list.contains { $0.contains("10.1.2.3") && $0.contains("::ffff:10.1.2.3") && $0.contains("2001:db8:5::1") })
        for bad in ["10.0.0.0/33", "10.1.0.0/8", "app.example.com", "10.0.0.1, nonsense"] {
            let error = #expect(throws: ConfigError.self, "\(bad)") { try read([key: bad]) }
            #expect(error?.description.hasPrefix(key + ": ") == true && error?.description.contains("CIDR range") == true)
        }
    }

    /// The pool's own wait and the gate's reserve are read, and a wait of nothing or a negative reserve refused.
    @Test func poolWaitAndGateReserveAreReadAndChecked() throws {
        let configuration = try read(["database.pool_wait": "0.25s", "database.gate_reserve": "2"])
        #expect(configuration.database.poolWait == 0.25 && configuration.database.gateReserve == 2)
        #expect(try read([:]).database.poolWait == 1 && read([:]).database.gateReserve == 1)
        let none = #expect(throws: ConfigError.self) { try read(["database.pool_wait": "0s"]) }
        #expect(none?.description.contains("database.pool_wait must be longer than 0") == true)
        #expect(throws: ConfigError.self) { try read(["database.gate_reserve": "-1"]) }
    }

    @Test func mailFromTakesAnyDisplayNameButOnlyAUsableAddress() throws {
        #expect(try read(["mail.from": "Équipe d’accès « Zoë » <no-reply@example.com>"]).mail.from.hasPrefix("Équipe"))
        #expect(try read(["mail.from": "no-reply@example.com"]).mail.from == "no-reply@example.com")
        for bad in ["Frontdoor", "Zoë <>", "Zoë <two words@example.com>", "Zoë <a@b.c, evil@example.com>"] {
            let error = #expect(throws: ConfigError.self, "\(bad)") { try read(["mail.from": bad]) }
            #expect(error?.description.hasPrefix("mail.from must be an address") == true)
        }
    }

    @Test func theRenderedConfigReadsBackToTheSameValues() throws {
        var config = try ConfigReader.read(file: nil, environment: [:])   // as config check has it: paths absolute
        config.signUp = .closed
        config.session.cookieDomain = "example.com"
        config.lockout.duration = 120
        config.siteName = "Say \"hi\""
        config.session.idleTimeout = 45
        config.fastcgi.socketMode = 0o600
        let text = ConfigReader.render(config)
        #expect(text.contains("socket_mode: \"0600\"") && text.contains("workers: 64\n"), "a mode keeps its leading zero for any YAML reader")
        let values = try ConfigReader.parse(yaml: text)
        #expect(try read(values) == config)
    }

    @Test func durationsAcceptUnitsAndPrintInTheLargestExactOne() throws {
        #expect(try ConfigKeys.parseDuration("30d") == 30 * 86400)
        #expect(try ConfigKeys.parseDuration("15m") == 900)
        #expect(try ConfigKeys.parseDuration("42") == 42)
        #expect(throws: ConfigError.self) { try ConfigKeys.parseDuration("-1h") }
        #expect(ConfigKeys.formatDuration(43200) == "12h")
        #expect(ConfigKeys.formatDuration(90) == "90s")
    }

    private func read(_ values: [String: String]) throws -> AppConfiguration {
        var environment: [String: String] = [:]
        for (key, value) in values { environment["FRONTDOOR_" + key.replacingOccurrences(of: ".", with: "_").uppercased()] = value }
        return try ConfigReader.read(file: nil, environment: environment)
    }

    @Test func browserIDSettingsAreCheckedAndTheIssuerComesFromThePublicURL() throws {
        #expect(try read([:]).effectiveIssuer == "127.0.0.1:8080")
        #expect(try read(["public_url": "https://id.example.com:443"]).effectiveIssuer == "id.example.com")
        #expect(try read(["public_url": "https://id.example.com", "browserid.issuer": "login.example.com"]).effectiveIssuer == "login.example.com")
        let config = try read(["browserid.trusted_issuers": "a.example, b.example:8443",
                               "browserid.http_hosts": "idp.test=127.0.0.1:5678, other.test=localhost:9",
                               "browserid.fetch_allowed_hosts": "IDP.test, other.test, idp.corp.example:8443, [2001:db8::5]",
                               "browserid.legacy_algorithms": "ds128, RS128"])
        #expect(config.browserID.trustedIssuerList == ["a.example", "b.example:8443"])
        #expect(config.browserID.httpHostMap == ["idp.test": "127.0.0.1:5678", "other.test": "localhost:9"])
        #expect(config.browserID.fetchAllowedHostList == ["idp.test", "other.test", "idp.corp.example:8443", "[2001:db8::5]"])
        #expect(config.browserID.legacyAlgorithmList == ["DS128", "RS128"])
        #expect(try read([:]).browserID.legacyAlgorithmList.isEmpty && (try read([:]).browserID.fetchTimeout) == 5)
        for (bad, message) in [(["browserid.http_hosts": "idp.test=10.0.0.1:80"], "loopback addresses"),
                               (["browserid.http_hosts": "idp.test"], "loopback addresses"),
                               (["browserid.http_hosts": "idp.test=127.0.0.1:5678"], "must also be listed in browserid.fetch_allowed_hosts"),
                               (["browserid.fetch_allowed_hosts": "idp.example/x"], "browserid.fetch_allowed_hosts must list"),
                               (["browserid.fetch_allowed_hosts": "idp.example:0"], "browserid.fetch_allowed_hosts must list"),
                               (["browserid.legacy_algorithms": "RS64"], "RS64 (512-bit RSA) is never accepted"),
                               (["browserid.legacy_algorithms": "DS128, ES256"], "may list RS128, DS128 and DS256"),
                               (["browserid.fetch_failure_cache": "2h"], "fetch_failure_cache"),
                               (["browserid.certificate_lifetime": "25h"], "lifetimes"), (["browserid.verify_leeway": "2m"], "verify_leeway"),
                               (["browserid.issuer": "evil/path"], "browserid.issuer")] {
            #expect { try read(bad) } throws: { "\($0)".contains(message) }
        }
        #expect(ProviderURL.isLoopback("[::1]:80") && ProviderURL.isLoopback("127.1.2.3"))
        #expect(!ProviderURL.isLoopback("127.0.0.1.evil:80") && !ProviderURL.isLoopback("localhost:http"))
    }

    // MARK: profile.fields

    /// Reads `yaml` as a config file (the list has no environment form).
    private func readFile(_ yaml: String) throws -> AppConfiguration {
        let path = NSTemporaryDirectory() + "frontdoor-config-\(UUID().uuidString).yml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ConfigReader.read(file: path, environment: [:])
    }

    @Test func profileFieldsAreReadFromTheList() throws {
        let config = try readFile("""
            site_name: Example
            profile:
              fields:
                - name: username
                  label: Username
                  required: true
                  min_length: 4
                  max_length: 20
                  pattern: "[A-Za-z0-9_]+"
                  unique: true
                  message: "should have at least 4 characters"
                  messages: { invalid: "may hold only letters, digits and _" }
                - name: phone
                  type: tel
                  autocomplete: tel
                  sign_up: no
            """)
        #expect(config.siteName == "Example")
        var username = AppConfiguration.ProfileFieldConfig(name: "username", label: "Username")
        username.required = true
        username.minLength = 4
        username.maxLength = 20
        username.pattern = "[A-Za-z0-9_]+"
        username.unique = true
        username.message = "should have at least 4 characters"
        username.messages = ["invalid": "may hold only letters, digits and _"]
        var phone = AppConfiguration.ProfileFieldConfig(name: "phone")
        phone.type = "tel"
        phone.autocomplete = "tel"
        phone.signUp = false
        #expect(config.profileFields == [username, phone])

        let fields = config.declaredProfileFields
        #expect(fields.map(\.name) == ["username", "phone"] && fields.map(\.field.displayName) == ["Username", "phone"])
        #expect(fields.map(\.onSignUp) == [true, false] && fields.map(\.unique) == [true, false] && fields[1].inputType == "tel")
        let errors = Validator(fields.map(\.field)).validate(["username": "ab!"])
        #expect(errors.messages(for: "username", in: .english)
                == ["Username should have at least 4 characters", "Username may hold only letters, digits and _"])
    }

    @Test func withoutTheListThereAreNoProfileFields() throws {
        #expect(try readFile("site_name: Example\n").profileFields.isEmpty)
        #expect(try readFile("profile:\n  fields: []\n").profileFields.isEmpty)
        #expect(try readFile("profile:\n  fields:\n").profileFields.isEmpty)
    }

    @Test(arguments: [
        ("fields: username", "profile.fields: expected a list"),
        ("fields:\n    - username", "profile.fields[1]: expected a mapping"),
        ("fields:\n    - label: Username", "profile.fields[1].name: missing"),
        ("fields:\n    - name: UserName", "profile.fields[1].name: must be a lower-case letter"),
        ("fields:\n    - name: email", "profile.fields[1].name:"),
        // The profile form's language choice (issue 10) is posted as `language`: a declared field may not take the name.
        ("fields:\n    - name: language", "profile.fields[1].name:"),
        ("fields:\n    - name: username\n      colour: red", "profile.fields[1]: unknown option colour"),
        ("fields:\n    - name: username\n      min_length: four", "profile.fields.username.min_length: must be a whole number"),
        ("fields:\n    - name: username\n      min_length: 30\n      max_length: 20", "profile.fields.username.min_length: must not be more than max_length"),
        ("fields:\n    - name: username\n      max_length: 0", "profile.fields.username.max_length: must be at least 1"),
        ("fields:\n    - name: username\n      required: maybe", "profile.fields.username.required: must be true or false"),
        ("fields:\n    - name: username\n      unique: sometimes", "profile.fields.username.unique: must be true or false"),
        ("fields:\n    - name: username\n      type: colour", "profile.fields.username.type: must be one of text, email, tel, url, number"),
        ("fields:\n    - name: username\n      pattern: \"[a-\"", "profile.fields.username.pattern: is not a valid regular expression"),
        ("fields:\n    - name: username\n      label: [a, b]", "profile.fields.username.label: expected a single value"),
        ("fields:\n    - name: username\n      label: \"two\\nlines\"", "profile.fields.username.label: must be one line"),
        ("fields:\n    - name: username\n      autocomplete: \"x\\\" onfocus\"", "profile.fields.username.autocomplete:"),
        ("fields:\n    - name: username\n      messages: { short: hi }", "profile.fields.username.messages.short: unknown rule"),
        ("fields:\n    - name: username\n      messages: nice", "profile.fields.username.messages: expected a mapping"),
        ("fields:\n    - name: username\n    - name: username", "profile.fields.username: declared twice"),
    ])
    func badProfileFieldsAreRefusedNamingTheFieldAndTheOption(entry: String, expected: String) throws {
        let error = #expect(throws: ConfigError.self) { try readFile("profile:\n  " + entry + "\n") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test func theRenderedProfileFieldsReadBackToTheSameList() throws {
        var username = AppConfiguration.ProfileFieldConfig(name: "username", label: "User \"name\"")
        username.required = true
        username.minLength = 4
        username.pattern = #"\w+\d?"#
        username.unique = true
        username.messages = ["too_short": "should have at least 4 characters", "invalid": "is odd: \\ and #"]
        var age = AppConfiguration.ProfileFieldConfig(name: "age")
        age.type = "number"
        age.signUp = false
        age.message = "must be a number: 42"
        var config = try ConfigReader.read(file: nil, environment: [:])   // as config check has it: paths absolute
        config.profileFields = [username, age]
        let text = ConfigReader.render(config)
        #expect(text.contains("profile:\n  fields:\n    - name: \"username\"\n"))
        #expect(try readFile(text) == config)
        #expect(ConfigReader.render(AppConfiguration()).hasSuffix("profile:\n  fields: []\n"))
    }
}
