// AppConfiguration.swift: the whole configuration as one typed struct. Its initial values are the defaults, each written
// once: here for WebFront's keys, in CoreConfiguration.swift's policies for AccountCore's (read from there below).
// Keys, types and meanings: the key table (ConfigKeys+Table.swift).
import AccountCore
import Foundation

/// Everything Frontdoor is configured with; read once in `main` (see `ConfigReader`) and passed down.
public struct AppConfiguration: Sendable, Equatable {
    /// The entries of a comma-separated config value, trimmed, empty ones left out.
    static func commaList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The site's name, shown in titles and headers (`site_name`).
    public var siteName = "Frontdoor"
    /// An image shown before the site name in every page's header (`logo_url`); empty: none.
    public var logoURL = ""
    /// Where nginx mounts the app (`base_path`); every link, form and cookie uses it.
    public var basePath = "/account"
    /// URL path of the static files nginx serves (`static_path`; empty: `<base_path>/static`).
    public var staticPath = ""
    /// Scheme, host and port people reach the site at, for links in mail (`public_url`).
    public var publicURL = "http://127.0.0.1:8080"
    public var database = Database()
    public var templates = Templates()
    public var fastcgi = FastCGI()
    public var session = Session()
    public var password = Password()
    public var confirmation = Confirmation()
    public var reminder = Reminder()
    public var mail = Mail()
    public var browserID = BrowserID()
    public var log = Log()
    /// Who may sign up (`signup`): `open`, `invite` or `closed`.
    public var signUp = SignUpPolicy.default.mode
    /// How long an invitation link works (`invite.lifetime`).
    public var inviteLifetime = SignUpPolicy.default.inviteLifetime
    /// Accounts one client address may create per `signup_limit.window` (`signup_limit.max_per_address`; 0: no limit)
    /// and that window.
    public var signUpLimit = SignUpPolicy.default.maxPerAddress
    public var signUpWindow = SignUpPolicy.default.window
    public var lockout = Lockout()
    public var redirect = Redirect()
    public var client = Client()
    public var metrics = Metrics()
    /// The operator's extra profile fields (`profile.fields`, a list; see AppConfiguration+Profile.swift).
    public var profileFields: [ProfileFieldConfig] = []
    /// Social sign-in (section `social`; see AppConfiguration+Social.swift).
    public var social = Social()
    /// The JSON API for native apps (section `api`).
    public var api = API()
    /// The languages offered and the operator's wording (section `languages`, and `messages`).
    public var languages = Languages()
    /// How long audit rows and sent mail are kept (section `retention`: `audit`, `sent_mail`, `prune_interval`; 0 keeps
    /// forever).
    public var retention = RetentionPolicy.default
    /// Usernames (section `identity`; see AppConfiguration+Identity.swift).
    public var identity = Identity()
    /// What the gate tells apps (section `gate`).
    public var gate = Gate()
    /// Whether everyone must have a second factor (`second_factor`; AccountCore's SecondFactorPolicy, docs/two-step.md).
    public var secondFactor = SecondFactorPolicy().mode
    /// Config section `passkeys` (AppConfiguration+Passkeys.swift).
    public var passkeys = Passkeys()
    /// The OpenID Connect provider (section `oidc`; AppConfiguration+OpenID.swift) and its clients (`oidc.clients`).
    public var openID = OpenID()
    /// Who may use the admin pages (section `admin`; AppConfiguration+Admin.swift).
    public var admin = Admin()

    public init() {}

    /// Config section `session`.
    public struct Session: Sendable, Equatable {
        /// Name of the session cookie (`cookie_name`).
        public var cookieName = "frontdoor_session"
        /// Absolute lifetime (`lifetime`).
        public var lifetime = SessionPolicy.default.lifetime
        /// Idle timeout (`idle_timeout`).
        public var idleTimeout = SessionPolicy.default.idleTimeout
        /// Lifetime with "remember me" (`remember_lifetime`).
        public var rememberLifetime = SessionPolicy.default.rememberLifetime
        /// `auto`: Secure when the request came over https; `always`: Secure on every cookie (`secure_cookie`).
        public var secureCookie = SecureCookie.auto
        /// Domain of the session cookie (`cookie_domain`), e.g. `example.com` so one sign-in covers
        /// `app.example.com` and `wiki.example.com`; empty: this host only.
        public var cookieDomain = ""
        /// Password change, address changes and account deletion ask the password again when it was last entered
        /// longer ago than this (`reauthenticate_after`).
        public var reauthenticateAfter = SessionPolicy.default.reauthenticateAfter
        /// How many accounts one browser may be signed in to at once (`max_accounts`).
        public var maxAccounts = SessionPolicy.default.maxAccounts
    }

    /// When cookies carry the Secure attribute.
    public enum SecureCookie: String, Sendable, Equatable, CaseIterable {
        case auto, always
    }

    /// Config section `password`.
    public struct Password: Sendable, Equatable {
        public var minLength = PasswordPolicy.default.length.lowerBound
        public var maxLength = PasswordPolicy.default.length.upperBound
        /// A file of refused passwords, one per line (`blocklist_file`; empty: the built-in list of
        /// common passwords only). For example the most common entries of a breached-password list.
        public var blocklistFile = ""
        public var argon2MemoryKiB = PasswordPolicy.default.hashing.memoryKiB
        public var argon2Iterations = PasswordPolicy.default.hashing.iterations
        public var argon2Parallelism = PasswordPolicy.default.hashing.parallelism
    }

    /// Config section `confirmation`.
    public struct Confirmation: Sendable, Equatable {
        /// Sign-in waits until the address is confirmed (`required`).
        public var required = MailPolicy.default.confirmationRequired
        /// How long a confirmation link works (`lifetime`).
        public var lifetime = MailPolicy.default.confirmationLifetime
    }

    /// Config section `reminder`.
    public struct Reminder: Sendable, Equatable {
        /// How long a password reset link works (`lifetime`).
        public var lifetime = MailPolicy.default.resetLifetime
    }

    /// Config section `mail`.
    public struct Mail: Sendable, Equatable {
        /// `outbox` (files in `outbox`) or `smtp` (`transport`).
        public var transport = MailTransportKind.outbox
        /// Sender shown in every mail (`from`).
        public var from = "Frontdoor <no-reply@localhost>"
        /// Folder for .eml files with the outbox transport (`outbox`).
        public var outbox = "var/outbox"
        /// `smtp://host:587` or `smtps://host:465` (`smtp_url`).
        public var smtpURL = ""
        /// Require STARTTLS on smtp:// (`smtp_starttls`).
        public var smtpStartTLS = false
        public var smtpUsername = ""
        public var smtpPassword = ""
        /// File whose first line is the SMTP AUTH password (`smtp_password_file`); wins over `smtp_password`.
        public var smtpPasswordFile = ""
        /// PEM CA certificates trusted for the SMTP server's certificate instead of the system store (`smtp_ca_file`).
        public var smtpCAFile = ""
        /// SMTP connect and transfer limit (`timeout`).
        public var timeout: TimeInterval = 30
        /// First retry delay after a failed delivery, doubling up to 1h (`retry_base`).
        public var retryBase = MailPolicy.default.retryBase
        /// At most one mail of a kind per address in this window (`throttle`).
        public var throttle = MailPolicy.default.throttle
        /// How often the background sender looks for due mail (`send_interval`).
        public var sendInterval: TimeInterval = 5
    }

    /// Where mail goes.
    public enum MailTransportKind: String, Sendable, Equatable, CaseIterable {
        case outbox, smtp
    }

    /// Config section `browserid`: Frontdoor as BrowserID identity provider and verifier.
    public struct BrowserID: Sendable, Equatable {
        /// Issuer name in certificates (`issuer`); empty: host[:port] of `public_url`.
        public var issuer = ""
        /// Certificate lifetime (`certificate_lifetime`, at most 24h).
        public var certificateLifetime: TimeInterval = 86400
        /// Certificate lifetime when "this is not my computer" is ticked (`ephemeral_certificate_lifetime`).
        public var ephemeralCertificateLifetime: TimeInterval = 3600
        /// Other identity providers trusted to vouch for any address (`trusted_issuers`, comma-separated).
        public var trustedIssuers = ""
        /// Test only: issuers whose support document is fetched over plain http from a loopback address
        /// (`http_hosts`, "idp.test=127.0.0.1:5678, …").
        public var httpHosts = ""
        /// Slack allowed on expiry times when verifying (`verify_leeway`, at most 60s).
        public var verifyLeeway: TimeInterval = 0
        /// Time limit for fetching another provider's support document (`fetch_timeout`).
        public var fetchTimeout: TimeInterval = 5
        /// How long a fetched support document is reused (`fetch_cache`).
        public var fetchCache: TimeInterval = 600
        /// How long a failed fetch is not tried again (`fetch_failure_cache`).
        public var fetchFailureCache: TimeInterval = 60
        /// Time one /verify may take, its fetches and name lookups included (`verify_deadline`).
        public var verifyDeadline: TimeInterval = 5
        /// Support documents one /verify may ask for, cached ones included (`verify_fetches`): a delegating email
        /// domain, the issuer's keys, and one `authority` hop to spare.
        public var verifyFetches = 3
        /// Support-document fetches under way at once across the process (`fetch_concurrency`); past it /verify answers
        /// busy at once. At most half of `fastcgi.workers` is used, so slow identity providers never hold the gate's workers.
        public var fetchConcurrency = 8
        /// Issuers whose support document may be fetched from any address and port (`fetch_allowed_hosts`,
        /// comma-separated `host` or `host:port`): an operator's own private identity provider. Any other issuer is
        /// fetched only from public addresses, on port 443.
        public var fetchAllowedHosts = ""
        /// Whether only those issuers are fetched from (`fetch_only_allowed_hosts`): /verify then
        /// accepts assertions from Frontdoor itself, trusted_issuers' certificates and the listed providers only.
        /// Off by default (BrowserID lets any domain be an identity provider); the production example turns it on:
        /// Frontdoor's relying parties verify the certificates Frontdoor itself issues (no fetch at all), and with it on
        /// no outsider can make /verify fetch from a host of their choosing.
        public var fetchOnlyAllowedHosts = false
        /// Old signature algorithms still accepted from other providers and in certified keys (`legacy_algorithms`,
        /// comma-separated, any of RS128, DS128, DS256; empty: RS256 only). RS64 is never accepted.
        public var legacyAlgorithms = ""
        /// Origins allowed to use the dialog (popup and redirect) and the native bridge, and to frame the provisioning page
        /// (`allowed_origins`, comma-separated); empty: any site may use the dialog, none the bridge, none may frame.
        public var allowedOrigins = ""

        /// Whether a relying party at `origin` (as RelyingPartyOrigin writes it) may use the dialog, or the native bridge
        /// once the list names any origin (BrowserIDNativePage: an empty list turns the bridge off).
        /// Entries are compared as origins (`https://app.example:443` is `https://app.example`); an entry that is not
        /// one matches nothing, and never turns the list into "any site".
        public func allowsOrigin(_ origin: String) -> Bool {
            let entries = AppConfiguration.commaList(allowedOrigins)
            return entries.isEmpty || entries.contains { RelyingPartyOrigin.of($0) == origin.lowercased() }
        }

        /// `trusted_issuers` as a list.
        public var trustedIssuerList: [String] { AppConfiguration.commaList(trustedIssuers) }
        /// `fetch_allowed_hosts` as a list.
        public var fetchAllowedHostList: [String] { AppConfiguration.commaList(fetchAllowedHosts).map { $0.lowercased() } }
        /// `legacy_algorithms` as a list.
        public var legacyAlgorithmList: [String] { AppConfiguration.commaList(legacyAlgorithms).map { $0.uppercased() } }

        /// `http_hosts` as name → address; nil when an entry is not `name=address`.
        public var httpHostMap: [String: String]? {
            var map: [String: String] = [:]
            for entry in httpHosts.split(separator: ",") {
                let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
                map[parts[0]] = parts[1]
            }
            return map
        }
    }

    /// `browserid.issuer`, or host[:port] of `public_url` (the default port left out).
    public var effectiveIssuer: String {
        if !browserID.issuer.isEmpty { return browserID.issuer }
        guard let url = URLComponents(string: publicURL), let host = url.host else { return "localhost" }
        let defaultPort = url.scheme == "https" ? 443 : 80
        guard let port = url.port, port != defaultPort else { return host }
        return "\(host):\(port)"
    }

    /// Config section `api`: the devise-ios JSON API and email residences (`<base>/v1/…`).
    public struct API: Sendable, Equatable {
        /// Serve `v1/users` and `v1/residences` (`enabled`).
        public var enabled = true
        /// Absolute lifetime of an API token (`token_lifetime`; no idle timeout).
        public var tokenLifetime = SessionPolicy.default.apiTokenLifetime
        /// How long an email residence request waits for approval and collection (`residence_lifetime`).
        public var residenceLifetime = CoreConfiguration.default.residenceLifetime
    }

    /// Config section `log`.
    public struct Log: Sendable, Equatable {
        /// trace, debug, info, notice, warning, error or critical (`level`).
        public var level = "info"
        /// `text` (swift-log's lines) or `json` (one object per line; see LogFormat) (`format`).
        public var format = "text"
    }

    /// `static_path`, or `<base_path>/static` when not set.
    public var effectiveStaticPath: String { staticPath.isEmpty ? basePath + "/static" : staticPath }

    /// The part AccountCore needs.
    public var core: CoreConfiguration {
        var core = CoreConfiguration(
            session: SessionPolicy(lifetime: session.lifetime, idleTimeout: session.idleTimeout,
                                   rememberLifetime: session.rememberLifetime, reauthenticateAfter: session.reauthenticateAfter,
                                   apiTokenLifetime: api.tokenLifetime, maxAccounts: session.maxAccounts),
            password: PasswordPolicy(length: password.minLength...password.maxLength,
                                     hashing: .init(memoryKiB: password.argon2MemoryKiB, iterations: password.argon2Iterations,
                                                    parallelism: password.argon2Parallelism)),
            mail: MailPolicy(confirmationRequired: confirmation.required, confirmationLifetime: confirmation.lifetime,
                             resetLifetime: reminder.lifetime, throttle: mail.throttle, retryBase: mail.retryBase),
            lockout: LockoutPolicy(maxFailures: lockout.maxFailures, window: lockout.window, duration: lockout.duration,
                                   addressMaxFailures: lockout.addressMaxFailures, addressWindow: lockout.addressWindow,
                                   addressDuration: lockout.addressDuration),
            signUp: SignUpPolicy(mode: signUp, inviteLifetime: inviteLifetime, maxPerAddress: signUpLimit, window: signUpWindow))
        core.residenceLifetime = api.residenceLifetime
        core.languages = languages.availableList
        core.retention = retention
        core.usernames = identity.username
        core.secondFactor.mode = secondFactor
        core.passkeys = passkeyPolicy
        core.openID = openID.policy
        return core
    }
}
