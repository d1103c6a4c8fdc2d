// AppConfiguration+OpenIDClients.swift: the file-only list `oidc.clients`: the apps that sign people in through
// Frontdoor's OpenID Connect provider. Read into AccountCore's `OpenIDClient` (source `.configuration`), the secret read
// at start and kept only as its SHA-256 digest.
//
//   oidc:
//     clients:
//       - id: grafana                  required: [A-Za-z0-9._-]{1,64}, unique (the database's clients may not take it)
//         name: Grafana                shown on the consent page and in "Connected apps" (default: the id; 1 to 60 characters)
//         secret_file: grafana.secret  a confidential client's secret (read at start, trimmed, one line of at least 16
//                                        characters; a relative path is in the config file's folder)
//         public: false                true: no secret, PKCE S256 required (native apps, SPAs); exactly one of
//                                        secret_file and public: true
//         redirect_uris: [https://…]   required, exact match: https, http on a loopback host, or (public clients) a
//                                        private-use scheme with a dot (com.example.app:/callback, RFC 8252); no fragment
//         post_logout_redirect_uris: []  where RP-initiated logout may return to (same rules)
//         scopes: openid profile email groups   what it may ask (a string or a list; must hold openid; the default)
//         allow: ""                    who may use it: FRONTDOOR_ALLOW's rule language (GateRule), groups included;
//                                        empty: everyone signed in
//         second_factor: optional      optional | required (a sign-in for it needs two factors)
//         first_party: false           true: no consent page
//         subject: public              public | pairwise (a `sub` of its own per client)
//         backchannel_logout_uri: ""   https (or loopback http) URI told when a session ends; empty: none
//         api_sign_in: false           true: its access tokens may be exchanged at v1/users/sign_in/oidc for an API token
// Errors name the client and the option: `oidc.clients.grafana.redirect_uris: …`.
import AccountCore
import Crypto
import Foundation
import OAuthClient
import Yams

/// Reading and printing `oidc.clients`.
enum OpenIDClientsConfig {
    static let key = "oidc.clients"
    static let options = ["id", "name", "secret_file", "public", "redirect_uris", "post_logout_redirect_uris", "scopes", "allow",
                          "second_factor", "first_party", "subject", "backchannel_logout_uri", "api_sign_in"]
    /// The scopes a client may be given (offline_access is not offered: every client gets a refresh token).
    static let knownScopes = ["openid", "profile", "email", "groups"]
    static let maximumCount = 100
    static let maximumURIs = 20

    /// The list under `oidc.clients`; throws `ConfigError` naming the client and the option. A relative `secret_file`
    /// is read from `folder` (the config file's; nil: as given).
    static func parse(_ node: Node, folder: String? = nil) throws -> [OpenIDClient] {
        try ConfigList.parse(node, key: key, noun: "clients", first: "id", maximum: maximumCount, name: \.id) { node, position in
            try parseClient(node, position: position, folder: folder)
        }
    }

    /// Whether `id` can name a client: [A-Za-z0-9._-]{1,64}.
    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
    }

    private static func parseClient(_ node: Node, position: Int, folder: String?) throws -> OpenIDClient {
        let options = try ConfigList.options(node, key: key, position: position, known: Self.options, example: "id: grafana")
        guard let id = options["id"]?.scalar?.string, !id.isEmpty else { throw ConfigError("\(key)[\(position)].id: missing") }
        guard isValidID(id) else { throw ConfigError("\(key)[\(position)].id: must be 1 to 64 of A-Z, a-z, 0-9, ., _ and - (got \"\(id)\")") }
        func fail(_ option: String, _ problem: String) -> ConfigError { ConfigError("\(key).\(id).\(option): \(problem)") }
        func scalar(_ option: String) throws -> String? {
            guard let value = options[option] else { return nil }
            guard let scalar = value.scalar else { throw fail(option, "expected a single value") }
            guard !scalar.string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail(option, "must be one line")
            }
            return scalar.string.trimmingCharacters(in: .whitespaces)
        }
        func flag(_ option: String) throws -> Bool {
            guard let value = try scalar(option) else { return false }
            switch value.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw fail(option, "must be true or false (got \"\(value)\")")
            }
        }
        let name = try scalar("name") ?? id
        guard (1...60).contains(name.count) else { throw fail("name", "must be 1 to 60 characters") }
        let isPublic = try flag("public")
        let secretFile = try scalar("secret_file").map { path in folder.map { ConfigPaths.resolved(path, against: $0) } ?? path }
        var digests: [Data] = []
        switch (isPublic, secretFile) {
        case (false, nil): throw fail("secret_file", "missing (or public: true for a client without a secret)")
        case (true, .some): throw fail("secret_file", "a public client has no secret: give secret_file or public: true, not both")
        case (true, nil): break
        case let (false, path?): digests = [Data(SHA256.hash(data: Data(try secret(path, fail: fail).utf8)))]
        }
        let redirects = try uris(options["redirect_uris"], option: "redirect_uris", isPublic: isPublic, fail: fail)
        guard !redirects.isEmpty else { throw fail("redirect_uris", "missing (at least one)") }
        let logouts = try uris(options["post_logout_redirect_uris"], option: "post_logout_redirect_uris", isPublic: isPublic, fail: fail)
        var scopes = knownScopes
        if let node = options["scopes"] {
            scopes = try words(node, option: "scopes", fail: fail)
            if let unknown = scopes.first(where: { !knownScopes.contains($0) }) {
                throw fail("scopes", "\"\(unknown)\" is not offered (known: \(knownScopes.joined(separator: " ")))")
            }
            guard scopes.contains("openid") else { throw fail("scopes", "must include openid") }
        }
        let allow = try scalar("allow") ?? ""
        if case .unknown(let word)? = GateRule(allow).entries.first(where: { if case .unknown = $0 { true } else { false } }) {
            throw fail("allow", "\"\(word)\" is neither an address, a domain nor group:NAME")
        }
        let secondFactor = try scalar("second_factor") ?? "optional"
        guard ["optional", "required"].contains(secondFactor) else { throw fail("second_factor", "must be optional or required (got \"\(secondFactor)\")") }
        let subjectName = try scalar("subject") ?? "public"
        guard let subject = OpenIDClient.SubjectType(rawValue: subjectName) else { throw fail("subject", "must be public or pairwise (got \"\(subjectName)\")") }
        let backchannel = try scalar("backchannel_logout_uri") ?? ""
        guard backchannel.isEmpty || (ProviderURL.isAllowed(backchannel) && !backchannel.contains("#")) else {
            throw fail("backchannel_logout_uri", "must be an https URL, or http on a loopback host, without a fragment (got \"\(backchannel)\")")
        }
        return OpenIDClient(id: id, name: name, secretDigests: digests, isPublic: isPublic, redirectURIs: redirects,
                            postLogoutRedirectURIs: logouts, scopes: scopes, allow: allow, requiresSecondFactor: secondFactor == "required",
                            firstParty: try flag("first_party"), subjectType: subject, backchannelLogoutURI: backchannel.isEmpty ? nil : backchannel,
                            apiSignIn: try flag("api_sign_in"), source: .configuration, createdAt: nil)
    }

    /// The trimmed one line of at least 16 characters in `path`.
    private static func secret(_ path: String, fail: (String, String) -> ConfigError) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw fail("secret_file", "cannot read \(path)") }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.contains(where: \.isNewline) else { throw fail("secret_file", "\(path) must hold one line") }
        guard secret.count >= 16 else { throw fail("secret_file", "\(path) must hold a secret of at least 16 characters") }
        return secret
    }

    /// A string (space-separated) or a list of words, without repeats.
    private static func words(_ node: Node, option: String, fail: (String, String) -> ConfigError) throws -> [String] {
        let items: [String]
        if let sequence = node.sequence {
            items = try sequence.map { item in
                guard let text = item.scalar?.string else { throw fail(option, "expected a list") }
                return text.trimmingCharacters(in: .whitespaces)
            }
        } else if let text = node.scalar?.string {
            items = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        } else {
            throw fail(option, "expected a string or a list")
        }
        var unique: [String] = []
        for item in items where !item.isEmpty && !unique.contains(item) { unique.append(item) }
        return unique
    }

    /// The redirect URIs under `option` (absent: none), each one checked by `isRedirectURI`.
    private static func uris(_ node: Node?, option: String, isPublic: Bool, fail: (String, String) -> ConfigError) throws -> [String] {
        guard let node else { return [] }
        let list = try words(node, option: option, fail: fail)
        guard list.count <= maximumURIs else { throw fail(option, "at most \(maximumURIs)") }
        for uri in list where !isRedirectURI(uri, allowingPrivateScheme: isPublic) {
            throw fail(option, "\"\(uri)\" must be an https URL, http on a loopback host" + (isPublic ? ", or a private-use scheme with a dot (com.example.app:/callback)" : "")
                       + ", without a fragment")
        }
        return list
    }

    /// https, http on a loopback host, or (`allowingPrivateScheme`, RFC 8252 7.1) `reverse.domain:/path`; printable
    /// ASCII, no fragment, at most 2000 bytes.
    static func isRedirectURI(_ uri: String, allowingPrivateScheme: Bool) -> Bool {
        guard uri.utf8.count <= 2000, !uri.contains("#"), uri.unicodeScalars.allSatisfy({ (0x21...0x7e).contains($0.value) }) else { return false }
        if ProviderURL.isAllowed(uri) { return true }
        guard allowingPrivateScheme, let colon = uri.firstIndex(of: ":") else { return false }
        let scheme = uri[..<colon].lowercased()
        guard let first = scheme.first, first.isLetter, scheme.contains("."),
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return false }
        return uri.index(after: colon) < uri.endIndex
    }

    /// The clients as YAML lines for `frontdoor config check` (secrets never shown); nothing when there are none.
    static func render(_ clients: [OpenIDClient]) -> [String] {
        guard !clients.isEmpty else { return [] }
        let quoted = ProfileFieldsConfig.quoted
        var lines = ["\(key):"]
        for client in clients {
            lines += ["  - id: \(quoted(client.id))", "    name: \(quoted(client.name))"]
            lines.append(client.isPublic ? "    public: true" : "    secret_file: \(quoted("(read, not shown)"))")
            lines.append("    redirect_uris: [\(client.redirectURIs.map(quoted).joined(separator: ", "))]")
            lines.append("    post_logout_redirect_uris: [\(client.postLogoutRedirectURIs.map(quoted).joined(separator: ", "))]")
            lines.append("    scopes: \(quoted(client.scopes.joined(separator: " ")))")
            lines.append("    allow: \(quoted(client.allow))")
            lines.append("    second_factor: \(client.requiresSecondFactor ? "required" : "optional")")
            lines.append("    first_party: \(client.firstParty)")
            lines.append("    subject: \(client.subjectType.rawValue)")
            lines.append("    backchannel_logout_uri: \(quoted(client.backchannelLogoutURI ?? ""))")
            lines.append("    api_sign_in: \(client.apiSignIn)")
        }
        return lines
    }
}
