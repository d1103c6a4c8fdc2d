// ConfigPaths.swift: the config keys that name files or folders, made absolute once, when the config is read, so no
// later open depends on the folder a command was started from.
//
// A relative path written in the config file is relative to the folder of that file (the folder it is named in:
// symlinks are not followed). A built-in default or a FRONTDOOR_* environment value is relative to the current
// directory, as before. An empty value stays empty (fastcgi.socket: fd 0; password.blocklist_file: none). "." and ".."
// are folded away. Keys:
//   database.path   database.password_file   templates.path   fastcgi.socket   password.blocklist_file   mail.outbox   mail.smtp_ca_file
//   social.token_key_file   mail.smtp_password_file
//   social.providers[].client_secret_file (read while the file is parsed: against the file's folder)
import Foundation

/// Resolution of the path keys (see the file's header).
enum ConfigPaths {
    /// The keys whose values are paths, and where each is kept.
    static let keys: [(name: String, path: WritableKeyPath<AppConfiguration, String> & Sendable)] = [
        ("database.path", \.database.path),
        ("database.password_file", \.database.passwordFile),
        ("templates.path", \.templates.path),
        ("fastcgi.socket", \.fastcgi.socket),
        ("password.blocklist_file", \.password.blocklistFile),
        ("mail.outbox", \.mail.outbox),
        ("mail.smtp_ca_file", \.mail.smtpCAFile),
        ("social.token_key_file", \.social.tokenKeyFile),
        ("mail.smtp_password_file", \.mail.smtpPasswordFile),
        ("passkeys.authenticator_names", \.passkeys.authenticatorNames),
    ]

    /// Makes every path key of `configuration` absolute: those named in `fileKeys` (their value came from the config
    /// file) against `fileFolder`, the others (defaults, environment) against `currentDirectory`.
    static func resolve(_ configuration: inout AppConfiguration, fileFolder: String?, fileKeys: Set<String>, currentDirectory: String) {
        for (name, path) in keys {
            let base = fileKeys.contains(name) ? fileFolder ?? currentDirectory : currentDirectory
            configuration[keyPath: path] = resolved(configuration[keyPath: path], against: base)
        }
    }

    /// The absolute folder `file` is named in: `conf/frontdoor.yml` run from `/srv` → `/srv/conf`.
    static func folder(of file: String, currentDirectory: String) -> String {
        let absolute = resolved(file, against: currentDirectory)
        guard let slash = absolute.lastIndex(of: "/"), slash != absolute.startIndex else { return "/" }
        return String(absolute[..<slash])
    }

    /// `path` made absolute against `folder` (itself absolute), "." and ".." folded away; empty stays empty.
    ///
    /// ```swift
    /// ConfigPaths.resolved("../var/frontdoor.sqlite", against: "/srv/frontdoor/config")   // "/srv/frontdoor/var/frontdoor.sqlite"
    /// ConfigPaths.resolved("/var/lib/frontdoor/outbox", against: "/etc/frontdoor")          // unchanged
    /// ```
    static func resolved(_ path: String, against folder: String) -> String {
        guard !path.isEmpty else { return "" }
        var parts: [Substring] = []
        for part in (path.hasPrefix("/") ? path : folder + "/" + path).split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
