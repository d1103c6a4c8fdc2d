// AppConfiguration+Social.swift: config section `social`: sign-in providers and where their tokens' key lives.
//
//   social:
//     token_key_file: var/social-tokens.key      AES-GCM key for the providers' tokens, made at first start (0600)
//     token_allowed_addresses: "127.0.0.1, ::1"  who may read `<base>/internal/provider_token` (plus nginx `internal`)
//     http_timeout: 10s                          each call to a provider
//     providers:                                 file only; any number, each a button on sign-in and sign-up
//       - id: github                             required: [a-z0-9_-]{1,32}, the URL segment auth/<id>
//         preset: github                         oidc | google | github | facebook | twitter
//         ...                                    (helper A: every option, its default and check)
// (Foundation stub: helper A completes parsing, checks and rendering.)
import Foundation
import OAuthClient
import Yams

extension AppConfiguration {
    /// Config section `social`.
    public struct Social: Sendable, Equatable {
        /// The AES-GCM key file for stored provider tokens (`token_key_file`).
        public var tokenKeyFile = "var/social-tokens.key"
        /// Client addresses that may read provider tokens (`token_allowed_addresses`, comma-separated, default loopback);
        /// requests nginx marks with `fastcgi_param FRONTDOOR_INTERNAL 1` may too.
        public var tokenAllowedAddresses = "127.0.0.1, ::1"
        /// Timeout of each call to a provider (`http_timeout`, default 10s).
        public var httpTimeout: TimeInterval = 10
        /// The providers, in the order declared (`providers`).
        public var providers: [ProviderConfiguration] = []

        /// `token_allowed_addresses` as a set.
        public var tokenAllowedAddressList: Set<String> {
            Set(tokenAllowedAddresses.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }

        /// The configured provider with `id`.
        public func provider(_ id: String) -> ProviderConfiguration? { providers.first { $0.id == id } }

        /// The provider's display name, or the id itself when it is no longer configured.
        public func displayName(of id: String) -> String { provider(id)?.displayName ?? id }
    }
}

/// Reading and printing `social.providers`.
enum SocialProvidersConfig {
    static let key = "social.providers"

    /// The list under `social.providers`; throws `ConfigError` naming the provider and the option.
    static func parse(_ node: Node) throws -> [ProviderConfiguration] { [] }

    /// The providers as YAML lines for `frontdoor config check` (secrets shown as "(set)").
    static func render(_ providers: [ProviderConfiguration]) -> [String] { [] }
}
