// AppConfiguration+Social.swift: config section `social`: sign-in providers and where their tokens' key lives.
//
//   social:
//     token_key_file: …                          AES-GCM key for the providers' tokens, made at first start (0600)
//     token_allowed_addresses: …                 who may read `<base>/internal/provider_token` (plus nginx `internal`)
//     http_timeout: …                            each call to a provider
//   (these three: see the key table, ConfigKeys+Table.swift)
//     providers:                                 file only; any number, each a button on sign-in and sign-up
//       - id: github                             required: [a-z0-9_-]{1,32}, unique, not "email", "link" or "pick" (routes auth/<id>)
//         preset: github                         oidc | google | github | facebook | twitter (or x, its other name)
//                                                (default: the id, if a preset's name)
//         name: GitHub                           display name; default per preset (oidc: the id)
//         client_id: abc                         required
//         client_secret: xyz                     this, or client_secret_file: /path (read at start, trimmed; a relative path is
//                                                in the config file's folder); exactly one
//         issuer: https://sso.example.com        oidc: required; google: default https://accounts.google.com; others: refused
//         scopes: openid email profile           a string (space-separated) or a list; default per preset; oidc/google need openid
//         authorization_endpoint: https://…      optional overrides of the preset's (or discovery's) endpoints:
//         token_endpoint: https://…                https, or http to a loopback host (127.x, localhost, [::1])
//         userinfo_endpoint: https://…
//         emails_endpoint: https://…             github only
//         token_auth: post                       basic | post; default per preset (see ProviderPresets.swift)
//         tokeninfo_endpoint: https://…          google/facebook only: where native apps' tokens are checked (Google
//                                                  tokeninfo, Facebook debug_token); https or loopback http as above
//         native_client_ids: "id-ios, id-and"   google/facebook only: the native apps' client (app) ids whose tokens
//                                                  are accepted besides client_id; a list or a comma-separated string
//         native_access_tokens: false            twitter only: apps may sign in with a bare X user access token (default
//                                                  false: only the code form, which X binds to our client_id; a session
//                                                  from a bare token never counts as a recent sign-in anyway)
// Errors name the provider and the option: `social.providers.corp.issuer: …`.
import AccountCore
import Foundation
import IPAddresses
import OAuthClient
import Yams

extension AppConfiguration {
    /// Config section `social`.
    public struct Social: Sendable, Equatable {
        /// The AES-GCM key file for stored provider tokens (`token_key_file`).
        public var tokenKeyFile = "var/social-tokens.key"
        /// Client addresses and CIDR ranges that may read provider tokens (`token_allowed_addresses`, comma-separated);
        /// requests nginx marks with `fastcgi_param FRONTDOOR_INTERNAL 1` may too.
        public var tokenAllowedAddresses = "127.0.0.1, ::1"
        /// Timeout of each call to a provider (`http_timeout`).
        public var httpTimeout: TimeInterval = 10
        /// The providers, in the order declared (`providers`).
        public var providers: [ProviderConfiguration] = []

        /// `token_allowed_addresses` parsed.
        public var tokenAllowedAddressList: AddressList { AddressList(lenient: tokenAllowedAddresses) }

        /// The configured provider with `id`.
        public func provider(_ id: String) -> ProviderConfiguration? { providers.first { $0.id == id } }

        /// The provider's display name, or the id itself when it is no longer configured.
        public func displayName(of id: String) -> String { provider(id)?.displayName ?? id }
    }
}

/// Reading and printing `social.providers`.
enum SocialProvidersConfig {
    static let key = "social.providers"
    static let options = ["id", "preset", "name", "client_id", "client_secret", "client_secret_file", "issuer", "scopes",
                          "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "emails_endpoint", "token_auth",
                          "tokeninfo_endpoint", "native_client_ids", "native_access_tokens"]
    /// Ids that would clash with the routes auth/email and auth/link.
    static let reservedIDs: Set<String> = ["email", "link", "pick"]
    static let maximumCount = 20

    /// The list under `social.providers`; throws `ConfigError` naming the provider and the option. A relative
    /// `client_secret_file` is read from `folder` (the config file's; nil: as given).
    static func parse(_ node: Node, folder: String? = nil) throws -> [ProviderConfiguration] {
        try ConfigList.parse(node, key: key, noun: "providers", first: "id", maximum: maximumCount, name: \.id) { node, position in
            try parseProvider(node, position: position, folder: folder)
        }
    }

    /// Whether `id` can name a provider: [a-z0-9_-]{1,32}, not reserved.
    static func isValidID(_ id: String) -> Bool {
        (1...32).contains(id.count) && !reservedIDs.contains(id)
            && id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    private static func parseProvider(_ node: Node, position: Int, folder: String?) throws -> ProviderConfiguration {
        let options = try ConfigList.options(node, key: key, position: position, known: Self.options, example: "id: github")
        guard let id = options["id"]?.scalar?.string, !id.isEmpty else { throw ConfigError("\(key)[\(position)].id: missing") }
        guard isValidID(id) else {
            throw ConfigError("\(key)[\(position)].id: must be 1 to 32 of a-z, 0-9, _ and -, and not email, link or pick (got \"\(id)\")")
        }
        func fail(_ option: String, _ problem: String) -> ConfigError { ConfigError("\(key).\(id).\(option): \(problem)") }
        func scalar(_ option: String) throws -> String? {
            guard let value = options[option] else { return nil }
            guard let scalar = value.scalar else { throw fail(option, "expected a single value") }
            guard !scalar.string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail(option, "must be one line")
            }
            return scalar.string.trimmingCharacters(in: .whitespaces)
        }
        let kinds = ProviderKind.allCases.map(\.rawValue).joined(separator: " | ")
        let presetName = try scalar("preset") ?? id
        guard let kind = ProviderKind(rawValue: presetName == "x" ? ProviderKind.twitter.rawValue : presetName) else {
            throw options["preset"] == nil ? fail("preset", "missing (\(kinds); the default is the id when it names one)")
                                           : fail("preset", "must be \(kinds) (got \"\(presetName)\")")
        }
        var provider = ProviderConfiguration(id: id, kind: kind, clientID: "", clientSecret: "")
        if let name = try scalar("name") {
            guard (1...60).contains(name.count) else { throw fail("name", "must be 1 to 60 characters") }
            provider.displayName = name
        }
        guard let clientID = try scalar("client_id"), !clientID.isEmpty else { throw fail("client_id", "missing") }
        provider.clientID = clientID
        let secretFile = try scalar("client_secret_file").map { path in folder.map { ConfigPaths.resolved(path, against: $0) } ?? path }
        provider.clientSecret = try secret(try scalar("client_secret"), file: secretFile, fail: fail)
        if let issuer = try scalar("issuer") {
            guard provider.usesOpenID else { throw fail("issuer", "only for the oidc and google presets") }
            guard ProviderURL.isAllowed(issuer) else { throw fail("issuer", "must be an https URL, or http on a loopback host (got \"\(issuer)\")") }
            provider.issuer = issuer
        }
        guard !provider.usesOpenID || !provider.issuer.isEmpty else { throw fail("issuer", "missing (required for oidc)") }
        if let scopes = options["scopes"] {
            provider.scopes = try parseNames(scopes, option: "scopes", separator: " ", noun: "scope name", fail: fail)
        }
        guard !provider.usesOpenID || provider.scopes.contains("openid") else { throw fail("scopes", "must include openid") }
        let takesNativeTokens = kind == .google || kind == .facebook
        for (option, path) in [("authorization_endpoint", \ProviderConfiguration.authorizationEndpoint), ("token_endpoint", \.tokenEndpoint),
                               ("userinfo_endpoint", \.userInfoEndpoint), ("emails_endpoint", \.emailsEndpoint),
                               ("tokeninfo_endpoint", \.tokenInfoEndpoint)] {
            guard let url = try scalar(option) else { continue }
            guard option != "emails_endpoint" || kind == .github else { throw fail(option, "only for the github preset") }
            guard option != "tokeninfo_endpoint" || takesNativeTokens else { throw fail(option, "only for the google and facebook presets") }
            guard ProviderURL.isAllowed(url) else { throw fail(option, "must be an https URL, or http on a loopback host (got \"\(url)\")") }
            provider[keyPath: path] = url
        }
        if let auth = try scalar("token_auth") {
            guard let value = TokenEndpointAuth(rawValue: auth) else { throw fail("token_auth", "must be basic or post (got \"\(auth)\")") }
            provider.tokenEndpointAuth = value
        }
        if let ids = options["native_client_ids"] {
            guard takesNativeTokens else { throw fail("native_client_ids", "only for the google and facebook presets") }
            provider.nativeClientIDs = try parseNames(ids, option: "native_client_ids", separator: ",", noun: "client id",
                                                      rule: " (printable ASCII, no spaces or commas)", fail: fail)
        }
        if let value = try scalar("native_access_tokens") {
            guard kind == .twitter else { throw fail("native_access_tokens", "only for the twitter preset") }
            switch value.lowercased() {
            case "true", "yes", "on", "1": provider.nativeAccessTokens = true
            case "false", "no", "off", "0": provider.nativeAccessTokens = false
            default: throw fail("native_access_tokens", "must be true or false (got \"\(value)\")")
            }
        }
        return provider
    }

    /// `client_secret`, or the trimmed contents of `client_secret_file`; exactly one of them.
    private static func secret(_ inline: String?, file: String?, fail: (String, String) -> ConfigError) throws -> String {
        switch (inline, file) {
        case (nil, nil): throw fail("client_secret", "missing (or client_secret_file)")
        case (.some, .some): throw fail("client_secret_file", "give client_secret or client_secret_file, not both")
        case let (inline?, nil):
            guard !inline.isEmpty else { throw fail("client_secret", "is empty") }
            return inline
        case let (nil, path?):
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw fail("client_secret_file", "cannot read \(path)") }
            let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !secret.isEmpty, !secret.contains(where: \.isNewline) else { throw fail("client_secret_file", "\(path) must hold one line") }
            return secret
        }
    }

    /// `scopes` (space-separated, RFC 6749 3.3 tokens) or `native_client_ids` (comma-separated, and no comma in an id):
    /// a string, or a list, of printable ASCII names without spaces, quotes or backslashes; trimmed, without repeats,
    /// not empty. `noun` ("scope name", "client id") and `rule` word the errors.
    private static func parseNames(_ node: Node, option: String, separator: Character, noun: String, rule: String = "",
                                   fail: (String, String) -> ConfigError) throws -> [String] {
        let items: [String]
        if let sequence = node.sequence {
            items = try sequence.map { item in
                guard let text = item.scalar?.string else { throw fail(option, "expected a list of \(noun)s") }
                return text
            }
        } else if let text = node.scalar?.string {
            items = text.split(separator: separator).map(String.init)
        } else {
            throw fail(option, "expected a string or a list of \(noun)s")
        }
        let names = items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw fail(option, "is empty") }
        let separatorScalar = separator.unicodeScalars.first
        for name in names where !name.unicodeScalars.allSatisfy({
            (0x21...0x7e).contains($0.value) && $0 != "\"" && $0 != "\\" && $0 != separatorScalar
        }) {
            throw fail(option, "\"\(name)\" is not a \(noun)\(rule)")
        }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        return unique
    }

    /// The providers as YAML lines for `frontdoor config check` (secrets shown as "(set)"); nothing when there are none.
    static func render(_ providers: [ProviderConfiguration]) -> [String] {
        guard !providers.isEmpty else { return [] }
        let quoted = ProfileFieldsConfig.quoted
        var lines = ["\(key):"]
        for provider in providers {
            lines += [
                "  - id: \(quoted(provider.id))",
                "    preset: \(quoted(provider.kind.rawValue))",
                "    name: \(quoted(provider.displayName))",
                "    client_id: \(quoted(provider.clientID))",
                "    client_secret: \(quoted(provider.clientSecret.isEmpty ? "" : "(set)"))",
            ]
            if provider.usesOpenID { lines.append("    issuer: \(quoted(provider.issuer))") }
            lines.append("    scopes: \(quoted(provider.scopes.joined(separator: " ")))")
            for (option, url) in [("authorization_endpoint", provider.authorizationEndpoint), ("token_endpoint", provider.tokenEndpoint),
                                  ("userinfo_endpoint", provider.userInfoEndpoint), ("emails_endpoint", provider.emailsEndpoint),
                                  ("tokeninfo_endpoint", provider.tokenInfoEndpoint)]
            where !url.isEmpty {
                lines.append("    \(option): \(quoted(url))")
            }
            lines.append("    token_auth: \(quoted(provider.tokenEndpointAuth.rawValue))")
            if !provider.nativeClientIDs.isEmpty {
                lines.append("    native_client_ids: \(quoted(provider.nativeClientIDs.joined(separator: ", ")))")
            }
            if provider.kind == .twitter { lines.append("    native_access_tokens: \(provider.nativeAccessTokens)") }
        }
        return lines
    }
}
