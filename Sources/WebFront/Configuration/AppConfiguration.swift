// AppConfiguration.swift: the whole configuration as one typed struct with a default per key.
import AccountCore
import Foundation

/// Everything Frontdoor is configured with; read once in `main` (see `ConfigReader`) and passed down.
public struct AppConfiguration: Sendable, Equatable {
    /// The site's name, shown in titles and headers (`site_name`).
    public var siteName = "Frontdoor"
    /// Where nginx mounts the app (`base_path`, default `/account`); every link, form and cookie uses it.
    public var basePath = "/account"
    /// URL path of the static files nginx serves (`static_path`, default `<base_path>/static`).
    public var staticPath = ""
    public var database = Database()
    public var templates = Templates()
    public var fastcgi = FastCGI()
    public var session = Session()
    public var password = Password()
    public var log = Log()

    public init() {}

    /// Config section `database`.
    public struct Database: Sendable, Equatable {
        /// SQLite file (`path`, default `var/frontdoor.sqlite`).
        public var path = "var/frontdoor.sqlite"
    }

    /// Config section `templates`.
    public struct Templates: Sendable, Equatable {
        /// Folder of `.mustache` files (`path`, default `templates`).
        public var path = "templates"
    }

    /// Config section `fastcgi`.
    public struct FastCGI: Sendable, Equatable {
        /// Unix socket path (`socket`); empty: listen on fd 0 (spawn-fcgi, systemd).
        public var socket = ""
        /// Permissions of the socket file (`socket_mode`, octal, default 0660).
        public var socketMode: UInt32 = 0o660
        /// Worker threads (`workers`, default 8).
        public var workers = 8
        /// Largest request body accepted (`max_body_bytes`, default 65536); more gets 413.
        public var maxBodyBytes = 65_536
    }

    /// Config section `session`.
    public struct Session: Sendable, Equatable {
        /// Name of the session cookie (`cookie_name`).
        public var cookieName = "frontdoor_session"
        /// Absolute lifetime (`lifetime`, default 12h).
        public var lifetime: TimeInterval = 12 * 3600
        /// Idle timeout (`idle_timeout`, default 1h).
        public var idleTimeout: TimeInterval = 3600
        /// Lifetime with "remember me" (`remember_lifetime`, default 30d).
        public var rememberLifetime: TimeInterval = 30 * 86400
        /// `auto`: Secure when the request came over https; `always`: Secure on every cookie (`secure_cookie`).
        public var secureCookie = SecureCookie.auto
    }

    /// When cookies carry the Secure attribute.
    public enum SecureCookie: String, Sendable, Equatable, CaseIterable {
        case auto, always
    }

    /// Config section `password`.
    public struct Password: Sendable, Equatable {
        public var minLength = 8
        public var maxLength = 128
        public var argon2MemoryKiB: UInt32 = 19_456
        public var argon2Iterations: UInt32 = 2
        public var argon2Parallelism: UInt32 = 1
    }

    /// Config section `log`.
    public struct Log: Sendable, Equatable {
        /// trace, debug, info, notice, warning, error or critical (`level`, default info).
        public var level = "info"
    }

    /// `static_path`, or `<base_path>/static` when not set.
    public var effectiveStaticPath: String { staticPath.isEmpty ? basePath + "/static" : staticPath }

    /// The part AccountCore needs.
    public var core: CoreConfiguration {
        CoreConfiguration(
            session: SessionPolicy(lifetime: session.lifetime, idleTimeout: session.idleTimeout,
                                   rememberLifetime: session.rememberLifetime),
            password: PasswordPolicy(length: password.minLength...password.maxLength,
                                     hashing: .init(memoryKiB: password.argon2MemoryKiB, iterations: password.argon2Iterations,
                                                    parallelism: password.argon2Parallelism)))
    }
}
