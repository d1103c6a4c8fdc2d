// AppConfiguration+Database.swift: config section `database`: which database (an SQLite file or PostgreSQL), how to
// reach and bound it, and the host's cache of session lookups on PostgreSQL. The PostgreSQL defaults are PostgresSettings'.
import AccountCore
import Foundation

extension AppConfiguration {
    /// Config section `database`.
    public struct Database: Sendable, Equatable {
        /// SQLite file (`path`).
        public var path = "var/frontdoor.sqlite"
        /// Largest size of the file in MiB (`max_size_mb`; 0: no cap). At the cap, changes are refused
        /// with a 503 page ("can't save changes right now") and nothing is half-written; reading goes on.
        public var maxSizeMB = 0
        /// Which database (`url`): empty or `sqlite:PATH` for SQLite (`path` above), or a PostgreSQL URL
        /// (`postgresql://user@host:port/db?sslmode=verify-full`; any libpq URL). No password in it: see below.
        public var url = ""
        /// File holding the PostgreSQL role's password (`password_file`); else FRONTDOOR_DATABASE_PASSWORD; never argv.
        public var passwordFile = ""
        /// PostgreSQL connections per process (`pool_size`).
        public var poolSize = PostgresSettings.defaultPoolSize
        /// The longest one PostgreSQL statement may run (`statement_timeout`).
        public var statementTimeout = PostgresSettings.defaultStatementTimeout
        /// How long to wait for the PostgreSQL server to answer a new connection (`connect_timeout`).
        public var connectTimeout = PostgresSettings.defaultConnectTimeout
        /// How long a request waits for a free pooled connection before it is answered 503 (`pool_wait`).
        public var poolWait = PostgresSettings.defaultPoolWait
        /// Pooled connections only the gate's session lookup may take (`gate_reserve`; at most pool_size − 1 count).
        public var gateReserve = PostgresSettings.defaultGateReserve
        /// How old a host's cached session lookup may get before it is read again (`session_cache_max_age`; 0: no
        /// cache). Changes reach every host through LISTEN/NOTIFY at once; this is the safety net. PostgreSQL only.
        public var sessionCacheMaxAge = PostgresSettings.defaultSessionCacheMaxAge
        /// Session lookups a host keeps at most (`session_cache_size`).
        public var sessionCacheSize = PostgresSettings.defaultSessionCacheSize

        /// The PostgreSQL URL when `url` names one, else nil (SQLite).
        public var postgresURL: String? {
            url.hasPrefix("postgresql:") || url.hasPrefix("postgres:") ? url : nil
        }

        /// The SQLite file: `url`'s path when it is `sqlite:PATH`, else `path`.
        public var sqlitePath: String {
            url.hasPrefix("sqlite:") ? String(url.dropFirst("sqlite:".count)) : path
        }
    }
}
