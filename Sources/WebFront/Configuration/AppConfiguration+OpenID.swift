// AppConfiguration+OpenID.swift: config section `oidc`: Frontdoor as an OpenID Connect provider (docs/openid-connect.md).
//
//   oidc:
//     enabled: true                      serve the provider's routes (discovery, authorize, token …); off: they answer 404
//     code_lifetime: 60s                 an authorization code's life (10 s to 10 min)
//     access_token_lifetime: 1h          an access token's life (1 min to 24 h)
//     id_token_lifetime: 1h              an ID token's `exp` (1 min to 24 h)
//     refresh_token_lifetime: 30d        a refresh token's life, never beyond the Frontdoor session it came from (1 h to 365 d)
//     device_code_lifetime: 10m          a device authorization's life (RFC 8628; 1 min to 1 h)
//     device_poll_interval: 5s           the `interval` a device is told to poll at (1 s to 60 s)
//     pushed_request_lifetime: 90s       a pushed authorization request's life (RFC 9126; 10 s to 10 min)
//     key_grace: 1d                      how long a retired signing key stays in the JWKS (at least id_token_lifetime)
//   (these: see the key table, ConfigKeys+Table.swift)
//     clients:                           file only; the apps that sign people in through Frontdoor (OpenIDClientsConfig,
//       - id: grafana                      AppConfiguration+OpenIDClients.swift, lists every option)
// The issuer is `public_url` + `base_path`, exactly (no trailing slash): it is every token's `iss`.
import AccountCore
import Foundation

extension AppConfiguration {
    /// Config section `oidc`.
    public struct OpenID: Sendable, Equatable {
        /// Serve the provider (`enabled`).
        public var enabled = true
        /// An authorization code's life (`code_lifetime`).
        public var codeLifetime = OpenIDPolicy.default.codeLifetime
        /// An access token's life (`access_token_lifetime`).
        public var accessTokenLifetime = OpenIDPolicy.default.accessTokenLifetime
        /// An ID token's life (`id_token_lifetime`).
        public var idTokenLifetime: TimeInterval = 3600
        /// A refresh token's life (`refresh_token_lifetime`), never beyond its Frontdoor session.
        public var refreshTokenLifetime = OpenIDPolicy.default.refreshTokenLifetime
        /// A device authorization's life (`device_code_lifetime`).
        public var deviceCodeLifetime = OpenIDPolicy.default.deviceCodeLifetime
        /// The polling interval devices are told (`device_poll_interval`).
        public var devicePollInterval = OpenIDPolicy.default.devicePollInterval
        /// A pushed authorization request's life (`pushed_request_lifetime`).
        public var pushedRequestLifetime = OpenIDPolicy.default.pushedRequestLifetime
        /// How long a retired signing key stays published (`key_grace`).
        public var keyGrace: TimeInterval = 86400
        /// The clients of the config file (`clients`, file only), secrets read and digested at start.
        public var clients: [OpenIDClient] = []

        /// The configured client with `id`.
        public func client(_ id: String) -> OpenIDClient? { clients.first { $0.id == id } }

        /// The part AccountCore's OpenIDGrants needs (its lifetimes; the logout queue's own stay its defaults).
        public var policy: OpenIDPolicy {
            var policy = OpenIDPolicy.default
            policy.codeLifetime = codeLifetime
            policy.accessTokenLifetime = accessTokenLifetime
            policy.refreshTokenLifetime = refreshTokenLifetime
            policy.deviceCodeLifetime = deviceCodeLifetime
            policy.devicePollInterval = devicePollInterval
            policy.pushedRequestLifetime = pushedRequestLifetime
            return policy
        }
    }

    /// The OpenID Connect issuer: `public_url` + `base_path`, no trailing slash (read after both are normalized).
    public var openIDIssuer: String { publicURL + basePath }
}

extension ConfigReader {
    /// Refuses `oidc` lifetimes outside their ranges, and a key grace shorter than an ID token's life (a token signed
    /// just before a rotation must stay verifiable until it expires).
    static func validateOpenID(_ c: AppConfiguration) throws {
        let o = c.openID
        let ranges: [(String, TimeInterval, ClosedRange<TimeInterval>, String)] = [
            ("oidc.code_lifetime", o.codeLifetime, 10...600, "10s and 10m"),
            ("oidc.access_token_lifetime", o.accessTokenLifetime, 60...86400, "1m and 24h"),
            ("oidc.id_token_lifetime", o.idTokenLifetime, 60...86400, "1m and 24h"),
            ("oidc.refresh_token_lifetime", o.refreshTokenLifetime, 3600...(365 * 86400), "1h and 365d"),
            ("oidc.device_code_lifetime", o.deviceCodeLifetime, 60...3600, "1m and 1h"),
            ("oidc.device_poll_interval", o.devicePollInterval, 1...60, "1s and 60s"),
            ("oidc.pushed_request_lifetime", o.pushedRequestLifetime, 10...600, "10s and 10m"),
        ]
        for (key, value, range, words) in ranges where !range.contains(value) {
            throw ConfigError("\(key) must be between \(words) (got \(ConfigKeys.formatDuration(value)))")
        }
        guard o.keyGrace >= o.idTokenLifetime, o.keyGrace <= 90 * 86400 else {
            throw ConfigError("oidc.key_grace must be at least oidc.id_token_lifetime and at most 90d (got \(ConfigKeys.formatDuration(o.keyGrace)))")
        }
    }
}
