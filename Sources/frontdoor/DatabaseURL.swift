// DatabaseURL.swift: how the CLI names a database in its messages: a PostgreSQL URL without any password in it, and
// libpq's reasons in the operator's words (host unreachable, authentication failed, database missing, TLS refused).
//
// Options: none.
import AccountCore
import Foundation
import WebFront

enum DatabaseURL {
    /// `url` with the password of its user part (if any) and its query values (but where and how to connect) replaced by `***`.
    static func redacted(_ url: String) -> String { PostgresURLRules.redacted(url) }

    /// One line saying what is wrong, from a backend error.
    static func reason(_ error: any Error) -> String {
        let text: String
        switch error {
        case StorageError.unavailable(let detail), StorageError.failed(let detail): text = detail
        default: text = "\(error)"
        }
        let lower = text.lowercased()
        if lower.contains("password authentication failed") || lower.contains("no password supplied")
            || lower.contains("authentication failed") || lower.contains("role") && lower.contains("does not exist") {
            return "authentication failed (\(text))"
        }
        if lower.contains("database") && lower.contains("does not exist") { return "database missing (\(text))" }
        if lower.contains("ssl") || lower.contains("certificate") || lower.contains("tls") { return "TLS refused (\(text))" }
        if lower.contains("connection refused") || lower.contains("no such file or directory") || lower.contains("could not translate host name")
            || lower.contains("timeout expired") || lower.contains("network is unreachable") || lower.contains("no route to host") {
            return "host unreachable (\(text))"
        }
        return text
    }
}
