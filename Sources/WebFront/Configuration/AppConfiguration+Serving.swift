// AppConfiguration+Serving.swift: the sections of how the process serves: `templates` and `fastcgi`.
extension AppConfiguration {
    /// Config section `templates`.
    public struct Templates: Sendable, Equatable {
        /// Folder of `.mustache` files (`path`).
        public var path = "templates"
    }

    /// Config section `fastcgi`.
    public struct FastCGI: Sendable, Equatable {
        /// Unix socket path (`socket`); empty: listen on fd 0 (spawn-fcgi, systemd).
        public var socket = ""
        /// Permissions of the socket file (`socket_mode`, octal).
        public var socketMode: UInt32 = 0o660
        /// Worker threads (`workers`). A sign-in holds its worker while argon2 runs (on the hashing
        /// pool), so there must be workers to spare for gate checks: libfcgi answers one request per thread.
        public var workers = 64
        /// Largest request body accepted (`max_body_bytes`); more gets 413.
        public var maxBodyBytes = 65_536
    }
}
