// ProfileField.swift: a profile field the operator declares (config `profile.fields`), on the profile and sign-up forms.

/// One declared profile field: its validation (name, display name, rules with their messages) and how it is shown.
///
/// ```swift
/// ProfileField(Field("username", displayName: "Username",
///                    rules: [.required, .minLength(4).message("should have at least 4 characters"), .maxLength(20)]),
///              unique: true)
/// ```
public struct ProfileField: Sendable {
    /// Name, display name and rules.
    public var field: Field
    /// The input's type: text, email, tel, url or number.
    public var inputType: String
    /// The input's `autocomplete` token (`username`, `tel`, `off`…).
    public var autocomplete: String
    /// No two accounts may hold the same value (compared without case); enforced by a unique index.
    public var unique: Bool
    /// Also asked on the sign-up form.
    public var onSignUp: Bool
    /// Must be filled in (the form marks the input `required`; the rule itself is in `field`).
    public var isRequired = false

    public init(_ field: Field, inputType: String = "text", autocomplete: String = "off", unique: Bool = false, onSignUp: Bool = true) {
        self.field = field
        self.inputType = inputType
        self.autocomplete = autocomplete
        self.unique = unique
        self.onSignUp = onSignUp
    }

    public var name: String { field.name }
}

extension AccountForms {
    /// The display name every profile has: optional, at most 100 characters.
    public static func displayName(catalog: MessageCatalog = .english) -> Field {
        Field("display_name", displayName: catalog.text("field_display_name"), rules: [.maxLength(100), .singleLine])
    }

    /// The profile form: the display name and the declared fields.
    public static func profile(_ declared: [ProfileField], catalog: MessageCatalog = .english) -> Validator {
        Validator([displayName(catalog: catalog)] + declared.map(\.field))
    }
}

extension Rule {
    /// No line breaks or other control characters (names and other one-line values).
    public static let singleLine = Rule { value, _ in
        value.unicodeScalars.contains { $0.properties.generalCategory == .control } ? FieldError(key: "invalid") : nil
    }

    /// The whole value matches the regular expression `pattern` (Swift Regex syntax). An empty value passes:
    /// combine with `.required` when the field must be filled. A pattern that does not compile never matches.
    public static func pattern(_ pattern: String) -> Rule {
        Rule { value, _ in
            guard !value.isEmpty else { return nil }
            guard let regex = try? Regex(pattern), (try? regex.wholeMatch(in: value)) != nil else { return FieldError(key: "invalid") }
            return nil
        }
    }
}
