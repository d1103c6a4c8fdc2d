// AppConfiguration+Passkeys.swift: config section `passkeys`, and reading its names file.
//
// Options:
//   passkeys.authenticator_names   optional file naming authenticators by AAGUID, so a passkey added without a name
//                                  gets its authenticator's ("iCloud Keychain", "YubiKey 5"). JSON (an object
//                                  `{"<aaguid>": "<name>"}`) or YAML's plain mapping subset (`<aaguid>: <name>` lines,
//                                  `#` comments, names optionally quoted). Read once at start.
// The relying party itself is not a key: its ID is `public_url`'s host and its origin `public_url`'s scheme, host and
// port (PasskeyPolicy). Changing the host makes every stored passkey unusable (docs/passkeys.md).
import AccountCore
import Foundation

extension AppConfiguration {
    /// Config section `passkeys`.
    public struct Passkeys: Sendable, Equatable {
        /// File of AAGUID → authenticator name (`authenticator_names`); empty: none.
        public var authenticatorNames = ""
    }

    /// The passkeys relying party from `public_url` and `site_name`, without names (see `authenticatorNames(from:)`).
    public var passkeyPolicy: PasskeyPolicy { PasskeyPolicy(publicURL: publicURL, relyingPartyName: siteName) }

    /// The names in `passkeys.authenticator_names`, by lower-case AAGUID; empty when the key is empty.
    ///
    /// - Throws: `ConfigError` naming the key when the file cannot be read or holds a line that is not `aaguid: name`.
    public func authenticatorNames() throws -> [String: String] {
        let path = passkeys.authenticatorNames
        guard !path.isEmpty else { return [:] }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigError("passkeys.authenticator_names: cannot read \(path)")
        }
        return try Self.parseAuthenticatorNames(text)
    }

    /// `text` as JSON (an object) or as `aaguid: name` lines.
    static func parseAuthenticatorNames(_ text: String) throws -> [String: String] {
        var names: [String: String] = [:]
        if text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw ConfigError("passkeys.authenticator_names: not a JSON object")
            }
            for (key, value) in object {
                guard let name = value as? String else { throw ConfigError("passkeys.authenticator_names: \(key) has no name") }
                try add(key, name, to: &names)
            }
            return names
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line == "---" { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw ConfigError("passkeys.authenticator_names: line \(index + 1) is not `aaguid: name`")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            var name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, let first = name.first, first == "\"" || first == "'", name.last == first {
                name = String(name.dropFirst().dropLast())
            }
            try add(key, name, to: &names)
        }
        return names
    }

    private static func add(_ key: String, _ name: String, to names: inout [String: String]) throws {
        let hex = key.lowercased().filter { $0 != "-" }
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit), !name.isEmpty else {
            throw ConfigError("passkeys.authenticator_names: \(key) is not an AAGUID with a name")
        }
        let bytes = stride(from: 0, to: 32, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        names[PasskeyPolicy.aaguidString(bytes)] = String(name.prefix(AccountCore.Passkeys.maximumNameLength))
    }
}
