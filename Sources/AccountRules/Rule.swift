// Rule.swift: one validation rule for one form field, and the built-in rules of the DSL.

/// A failed rule: the catalog key of its message, the values the message needs, and an optional custom message.
public struct FieldError: Sendable, Equatable {
    /// Catalog key of the message ("blank", "too_short", …).
    public var key: String
    /// Values substituted into the message ("count" → "8").
    public var arguments: [String: String]
    /// A message set with `Rule.message(_:)`, used instead of the catalog's.
    public var customMessage: String?
    /// The other field the message names as `{attribute}` (a confirmation's), worded by the catalog at display.
    public var otherField: String?

    public init(key: String, arguments: [String: String] = [:], customMessage: String? = nil, otherField: String? = nil) {
        self.key = key
        self.arguments = arguments
        self.customMessage = customMessage
        self.otherField = otherField
    }
}

/// A check applied to one field's value (and, for confirmations, to the whole form).
///
/// ```swift
/// Field("username", displayName: "Username", rules: [.required, .minLength(4).message("should have at least 4 characters")])
/// ```
public struct Rule: Sendable {
    /// The values of the form, by field name.
    public typealias Values = [String: String]
    let stopsFieldOnFailure: Bool
    let check: @Sendable (_ value: String, _ values: Values) -> FieldError?

    /// A rule from a closure returning the error, if any.
    public init(stopsFieldOnFailure: Bool = false, check: @escaping @Sendable (_ value: String, _ values: Values) -> FieldError?) {
        self.stopsFieldOnFailure = stopsFieldOnFailure
        self.check = check
    }

    /// The same rule with its message replaced by `text` (shown after the field's display name).
    public func message(_ text: String) -> Rule {
        let inner = check
        return Rule(stopsFieldOnFailure: stopsFieldOnFailure) { value, values in
            guard var error = inner(value, values) else { return nil }
            error.customMessage = text
            return error
        }
    }

    /// The value must not be empty or only white space; when it is, the field's other rules are not run.
    public static let required = Rule(stopsFieldOnFailure: true) { value, _ in
        value.allSatisfy(\.isWhitespace) ? FieldError(key: "blank") : nil
    }

    /// At least `count` characters.
    public static func minLength(_ count: Int) -> Rule {
        Rule { value, _ in value.count < count ? FieldError(key: "too_short", arguments: ["count": String(count)]) : nil }
    }

    /// At most `count` characters.
    public static func maxLength(_ count: Int) -> Rule {
        Rule { value, _ in value.count > count ? FieldError(key: "too_long", arguments: ["count": String(count)]) : nil }
    }

    /// A plausible email address (see `EmailFormat`).
    public static let email = Rule { value, _ in
        EmailFormat.isValid(value) ? nil : FieldError(key: "invalid_email")
    }

    /// Equal to the value of `field`, whose display name the message shows.
    public static func confirms(_ field: String, displayName: String) -> Rule {
        Rule { value, values in
            value == (values[field] ?? "") ? nil : FieldError(key: "confirmation", arguments: ["attribute": displayName], otherField: field)
        }
    }

    /// Only characters for which `allowed` is true (for example a username's letters, digits and `_`).
    public static func characters(_ allowed: @escaping @Sendable (Character) -> Bool) -> Rule {
        Rule { value, _ in value.allSatisfy(allowed) ? nil : FieldError(key: "invalid") }
    }
}
