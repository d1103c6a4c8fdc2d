// AppConfiguration+Operators.swift: the operator's sections: lockout, sign-up mode, redirect hosts, client address, metrics.
import AccountCore
import Foundation
import IPAddresses

extension AppConfiguration {
    /// Config section `lockout` (see AccountCore's `Lockout`).
    public struct Lockout: Sendable, Equatable {
        /// Failures of one account within `window` that lock it (`max_failures`; 0: never lock).
        public var maxFailures = LockoutPolicy.default.maxFailures
        /// `window`.
        public var window = LockoutPolicy.default.window
        /// How long the account stays locked (`duration`).
        public var duration = LockoutPolicy.default.duration
        /// Failures from one client address within `address_window` that block it (`address_max_failures`; 0: never).
        public var addressMaxFailures = LockoutPolicy.default.addressMaxFailures
        /// `address_window`.
        public var addressWindow = LockoutPolicy.default.addressWindow
        /// How long the address stays blocked (`address_duration`).
        public var addressDuration = LockoutPolicy.default.addressDuration
    }

    /// Config section `redirect`: where return targets (`rd`) may point.
    public struct Redirect: Sendable, Equatable {
        /// Hosts besides `public_url`'s that return targets may name (`allowed_hosts`, comma-separated):
        /// `app.example.com` (that host, any port) or `.example.com` (the domain and every subdomain).
        public var allowedHosts = ""

        /// `allowed_hosts` as a list, lower-cased.
        public var allowedHostList: [String] {
            AppConfiguration.commaList(allowedHosts).map { $0.lowercased() }
        }
    }

    /// Config section `client`: who the client is when nginx sits behind another proxy.
    public struct Client: Sendable, Equatable {
        /// Addresses and CIDR ranges whose `X-Forwarded-For` is believed (`trusted_proxies`, comma-separated); empty:
        /// REMOTE_ADDR is the client.
        public var trustedProxies = ""

        /// Leading bits of an IPv6 client address that lockout by address and the sign-up limit count by
        /// (`ipv6_prefix`; 128: each address alone).
        public var ipv6Prefix = ClientInfo.defaultIPv6Prefix

        /// `trusted_proxies` parsed.
        public var trustedProxyList: AddressList { AddressList(lenient: trustedProxies) }
    }

    /// Config section `metrics`: `GET <base>/metrics` in Prometheus text format.
    public struct Metrics: Sendable, Equatable {
        /// Serve metrics at all (`enabled`).
        public var enabled = true
        /// Client addresses and CIDR ranges that may read them (`allowed_addresses`, comma-separated);
        /// requests nginx marks with `fastcgi_param FRONTDOOR_INTERNAL 1` (an `internal` location) may too.
        public var allowedAddresses = "127.0.0.1, ::1"
        /// This host's name in `frontdoor_host_info{host=…}` (`host`; by default the machine's hostname), so the figures of
        /// several hosts can be told apart.
        public var host = Metrics.machineName()

        static func machineName() -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
            return String(cString: buffer)
        }

        /// `allowed_addresses` parsed.
        public var allowedAddressList: AddressList { AddressList(lenient: allowedAddresses) }
    }
}
