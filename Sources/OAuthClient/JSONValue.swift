// JSONValue.swift: providers' JSON answers (token, discovery, JWKS, ID token claims, profiles) read loosely:
// any value, with accessors that say nil when a member is missing or of another type.
import Foundation

/// One JSON value.
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The object in `bytes`; throws `OAuthError.invalidResponse` naming `what` when it is not a JSON object.
    static func object(_ bytes: [UInt8], what: String) throws -> [String: JSONValue] {
        guard case let .object(members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
            throw OAuthError.invalidResponse("\(what) is not a JSON object")
        }
        return members
    }

    var string: String? { if case let .string(value) = self { value } else { nil } }

    /// A whole number, also when written as a string of digits or as a number with no fraction.
    var integer: Int64? {
        switch self {
        case let .integer(value): value
        case let .number(value): value.rounded() == value && abs(value) < 9e15 ? Int64(value) : nil
        case let .string(value): Int64(value)
        default: nil
        }
    }

    /// A number (seconds since 1970 in claims), integer or not.
    var number: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .number(value): value
        default: nil
        }
    }

    /// A boolean, also when written "true" / "false" (some providers send `email_verified` as a string).
    var bool: Bool? {
        switch self {
        case let .bool(value): value
        case .string("true"): true
        case .string("false"): false
        default: nil
        }
    }

    var array: [JSONValue]? { if case let .array(value) = self { value } else { nil } }
    var object: [String: JSONValue]? { if case let .object(value) = self { value } else { nil } }

    /// A string, or a whole number written as a string (GitHub's numeric user ids).
    var identifier: String? {
        if let string, !string.isEmpty { return string }
        if case let .integer(value) = self { return String(value) }
        return nil
    }
}
