// PostgresAdmin.swift: one statement outside any transaction, on a connection of its own (CREATE DATABASE and
// DROP DATABASE cannot run inside one): for tests' private clusters and operators' set-up commands.
//
// Options: none.

/// Statements that manage databases rather than rows.
public enum PostgresAdmin {
    /// Connects to `url` (with `password`), runs `sql`, disconnects.
    public static func run(_ sql: String, url: String, password: String? = nil) throws {
        let connection = try PostgresConnection(keywords: PostgresSettings(url: url, password: password).keywords)
        try connection.simple(sql)
    }
}
