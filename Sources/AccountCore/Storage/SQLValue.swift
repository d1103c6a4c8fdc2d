// SQLValue.swift: the values that cross the storage seam, the same on every backend.
//
// Options: none. SQLite's five storage classes are the common ground: a backend turns its own column types into them
// (PostgreSQL: boolean → integer 0/1, bigint/integer → integer, double precision/numeric → real or integer, bytea → blob,
// text → text), so rows decode the same way on both. Times are seconds since 1970 (`real`) everywhere.
import Foundation

/// One value bound to a statement or read from a row.
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift value that can be bound to a statement parameter.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

/// A Swift value that can be read from a column; `nil` when the column's value does not fit the type.
public protocol SQLDecodable {
    init?(sqlValue: SQLValue)
}

extension SQLValue: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { self }
    public init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: self = Int64(value)
        case .text(let value): guard let parsed = Int64(value) else { return nil }; self = parsed
        default: return nil
        }
    }
}

extension Int: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard let value = Int64(sqlValue: sqlValue) else { return nil }
        self = Int(value)
    }
}

extension Double: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .real(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .text(let value): guard let parsed = Double(value) else { return nil }; self = parsed
        default: return nil
        }
    }
}

extension Bool: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
}

extension String: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let value): self = value
        case .blob(let value): guard let text = String(data: value, encoding: .utf8) else { return nil }; self = text
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        case .null: return nil
        }
    }
}

extension Data: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .blob(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let value): self = value
        case .text(let value): self = Data(value.utf8)
        default: return nil
        }
    }
}

extension Date: SQLBindable, SQLDecodable {
    /// Seconds since 1970, like every time column.
    public var sqlValue: SQLValue { .real(timeIntervalSince1970) }
    public init?(sqlValue: SQLValue) {
        guard let seconds = Double(sqlValue: sqlValue) else { return nil }
        self = Date(timeIntervalSince1970: seconds)
    }
}

/// A statement's parameters in order (`?` in the statement text, on every backend).
///
/// ```swift
/// try tx.execute("UPDATE account SET language = ? WHERE id = ?", [language, accountId])   // language: String?
/// ```
public struct SQLArguments: ExpressibleByArrayLiteral, Sendable, Equatable {
    public var values: [SQLValue]

    public init(_ values: [SQLValue]) { self.values = values }

    public init(arrayLiteral elements: (any SQLBindable)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }

    /// The arguments of `elements`, nil binding NULL.
    public init(_ elements: [(any SQLBindable)?]) {
        values = elements.map { $0?.sqlValue ?? .null }
    }
}

/// A result set's column names and where each is, by name ignoring case; made once per statement and shared by all
/// its rows, so a lookup by name is one hash instead of a case-insensitive compare with every column before it.
public final class SQLColumns: Sendable {
    public let names: [String]
    /// Lower-cased name → the first column with that name ignoring case.
    private let folded: [String: Int]
    /// Each name as written → the same position `folded` gives it: a lookup spelled as the statement spells the column
    /// (always the case on SQLite) needs no lower-casing.
    private let exact: [String: Int]

    public init(_ names: [String]) {
        var folded: [String: Int] = [:], exact: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            let lower = name.lowercased()
            if folded[lower] == nil { folded[lower] = index }
            if exact[name] == nil { exact[name] = folded[lower] }
        }
        self.names = names
        self.folded = folded
        self.exact = exact
    }

    /// The position of column `name` (case ignored), or nil.
    public func position(of name: String) -> Int? {
        exact[name] ?? folded[name.lowercased()]
    }
}

/// One result row: values by column position and by name (names compare ignoring case: PostgreSQL folds unquoted
/// identifiers to lower case, SQLite keeps them as written).
public struct SQLRow: Sendable, Equatable {
    public var columns: [String] { header.names }
    public let values: [SQLValue]
    private let header: SQLColumns

    /// A row of its own columns (a backend building many rows passes one `SQLColumns` to all of them instead).
    public init(columns: [String], values: [SQLValue]) {
        self.init(columns: SQLColumns(columns), values: values)
    }

    /// A row of a result set whose columns are `columns`.
    public init(columns: SQLColumns, values: [SQLValue]) {
        header = columns
        self.values = values
    }

    public static func == (left: SQLRow, right: SQLRow) -> Bool {
        left.values == right.values && (left.header === right.header || left.columns == right.columns)
    }

    /// The raw value of column `name` (`.null` when there is no such column).
    public func value(_ name: String) -> SQLValue {
        guard let index = header.position(of: name), index < values.count else { return .null }
        return values[index]
    }

    /// Column `name` as `T`, or nil when it is NULL, missing or does not fit.
    public subscript<T: SQLDecodable>(_ name: String) -> T? {
        T(sqlValue: value(name))
    }

    /// Column `name` as `T`, for a column the statement guarantees (NOT NULL, selected by name): a NULL or missing
    /// value stops the process as the bug it is. Feature code prefers `decode`, which throws.
    public subscript<T: SQLDecodable>(_ name: String) -> T {
        guard let decoded = T(sqlValue: value(name)) else { preconditionFailure("column \(name) is \(value(name)), not \(T.self)") }
        return decoded
    }

    /// Column `name` as `T`; a NULL or missing value is a programming error in the statement, reported as
    /// `StorageError.badRow`.
    public func decode<T: SQLDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let decoded = T(sqlValue: value(name)) else { throw StorageError.badRow("column \(name) is \(value(name)), not \(T.self)") }
        return decoded
    }

    /// The first column as `T`, or nil.
    public func first<T: SQLDecodable>(as type: T.Type = T.self) -> T? {
        values.first.flatMap { T(sqlValue: $0) }
    }
}
