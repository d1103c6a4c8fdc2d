// PostgresURLRules.swift: what a PostgreSQL URL (`database.url`, `db copy`'s FROM and TO) may hold, read the way libpq
// reads it: the hosts of the authority or of `host=`/`hostaddr=`, and query keywords and values percent-decoded (libpq
// decodes both, so `pass%77ord=` is a password).
//
// Rules: no password (neither `user:password@` nor a `password` keyword); a host other than a unix socket, localhost,
// 127.0.0.0/8 or ::1 needs `sslmode` require, verify-ca or verify-full (libpq's default, `prefer`, lets an active
// man in the middle downgrade to clear text, as plain `smtp://` would). `redacted` names a URL without secrets.
//
// Options: none.
import Foundation

public enum PostgresURLRules {
    /// The URL's parts as libpq sees them.
    struct Parts {
        var userInfo = ""
        var hosts: [String] = []
        var parameters: [(key: String, value: String)] = []
    }

    static func parse(_ url: String) -> Parts {
        var parts = Parts()
        guard let scheme = url.range(of: "://") else { return parts }
        let rest = url[scheme.upperBound...]
        let query = rest.firstIndex(of: "?")
        let beforeQuery = rest[..<(query ?? rest.endIndex)]
        var authority = beforeQuery.prefix { $0 != "/" }
        if let at = authority.lastIndex(of: "@") {
            parts.userInfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        parts.hosts = authority.split(separator: ",", omittingEmptySubsequences: false).map { host in
            if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<end]) }
            return decode(host.prefix { $0 != ":" })
        }
        if let query {
            for pair in rest[rest.index(after: query)...].split(separator: "&") {
                let key = pair.prefix { $0 != "=" }
                let value = pair.dropFirst(key.count + (key.count < pair.count ? 1 : 0))
                parts.parameters.append((decode(key), decode(value)))
            }
        }
        return parts
    }

    /// True when the URL carries a password, in its user part or as a (possibly percent-encoded) keyword.
    public static func hasPassword(_ url: String) -> Bool {
        let parts = parse(url)
        return parts.userInfo.contains(":") || parts.parameters.contains { $0.key.lowercased() == "password" }
    }

    /// The hosts libpq would connect to: `host=` (and `hostaddr=`) when given, else the authority's.
    static func hosts(_ parts: Parts) -> [String] {
        let named = parts.parameters.filter { $0.key == "host" || $0.key == "hostaddr" }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return named.isEmpty ? parts.hosts : named
    }

    /// A unix socket (empty: libpq's default socket; a path; an abstract socket), localhost, 127.0.0.0/8 or ::1.
    static func isLocal(_ host: String) -> Bool {
        if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// True when some host is remote and `sslmode` is not require, verify-ca or verify-full.
    public static func lacksTLS(_ url: String) -> Bool {
        let parts = parse(url)
        guard hosts(parts).contains(where: { !isLocal($0) }) else { return false }
        let mode = parts.parameters.last { $0.key == "sslmode" }?.value ?? "prefer"
        return !["require", "verify-ca", "verify-full"].contains(mode)
    }

    /// Keywords whose values say where the database is and how it is reached, never a secret.
    static let shownKeywords: Set<String> = ["host", "hostaddr", "port", "dbname", "sslmode", "connect_timeout",
                                             "target_session_attrs", "application_name"]

    /// `url` with its password (if any) and every query value but `shownKeywords`' replaced by `***`.
    public static func redacted(_ url: String) -> String {
        var shown = url
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                shown = String(url[..<colon]) + ":***" + String(url[at...])
            }
        }
        guard let query = shown.firstIndex(of: "?") else { return shown }
        let pairs = shown[shown.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let key = pair.prefix { $0 != "=" }
            return shownKeywords.contains(decode(key)) ? String(pair) : String(key) + "=***"
        }
        return String(shown[...query]) + pairs.joined(separator: "&")
    }

    private static func decode<S: StringProtocol>(_ text: S) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
