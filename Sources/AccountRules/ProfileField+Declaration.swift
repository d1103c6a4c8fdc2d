// ProfileField+Declaration.swift: a declared field's options (config `profile.fields`) turned into its rules.
//
// Options of one field:
//   name          [a-z][a-z0-9_]*, not one of `reservedNames`
//   label         the display name in forms and messages (default: the name)
//   required      must not be blank (default false)
//   min_length    at least this many characters (default 0); an empty optional value passes
//   max_length    at most this many characters (default `defaultMaxLength`)
//   pattern       the whole value matches this Swift Regex; an empty optional value passes
//   type          text | email | tel | url | number: the input's type; email and number add a rule
//   unique        no two accounts hold the same value, compared without case (default false)
//   sign_up       also on the sign-up form (default true)
//   message       replaces the message of every rule of the field
//   messages      replaces the message of one rule, by its key (see `messageKeys`); wins over `message`
// Every declared field is one line (no control characters).

extension ProfileField {
    /// The input types a declared field may have.
    public static let inputTypes = ["text", "email", "tel", "url", "number"]
    /// The rule keys `messages` may name.
    public static let messageKeys = ["blank", "too_short", "too_long", "invalid", "invalid_email", "not_a_number"]
    /// Names the forms use already; a declared field may not take one.
    public static let reservedNames: Set<String> = [
        "email", "password", "password_confirmation", "current_password", "display_name", "csrf_token", "invite",
        "remember_me", "rd", "id", "token", "add", "language", "lang", "back",
    ]
    /// `max_length` when the operator sets none.
    public static let defaultMaxLength = 255

    /// Whether `name` is a valid declared field name: a lower-case letter, then lower-case letters, digits or `_`
    /// (at most 40), and not reserved.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 40 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            && !reservedNames.contains(name)
    }

    /// The field the operator declared, with its rules in this order: required, min_length, max_length, the type's
    /// rule, pattern, one line. Rules other than `required` let an empty value pass, so an optional field may stay empty.
    public static func declared(name: String, label: String = "", required: Bool = false, minLength: Int = 0,
                                maxLength: Int = defaultMaxLength, pattern: String = "", inputType: String = "text",
                                autocomplete: String = "off", unique: Bool = false, onSignUp: Bool = true,
                                message: String = "", messages: [String: String] = [:]) -> ProfileField {
        func worded(_ rule: Rule, _ key: String) -> Rule {
            if let text = messages[key] ?? (message.isEmpty ? nil : message) { return rule.message(text) }
            return rule
        }
        var rules: [Rule] = []
        if required { rules.append(worded(.required, "blank")) }
        if minLength > 0 { rules.append(worded(.minLength(minLength).allowingEmpty, "too_short")) }
        rules.append(worded(.maxLength(maxLength), "too_long"))
        switch inputType {
        case "email": rules.append(worded(Rule.email.allowingEmpty, "invalid_email"))
        case "number": rules.append(worded(.number, "not_a_number"))
        default: break
        }
        if !pattern.isEmpty { rules.append(worded(.pattern(pattern), "invalid")) }
        rules.append(worded(.singleLine, "invalid"))
        var field = ProfileField(Field(name, displayName: label.isEmpty ? name : label, rules: rules), inputType: inputType,
                                 autocomplete: autocomplete, unique: unique, onSignUp: onSignUp)
        field.isRequired = required
        return field
    }
}

extension Rule {
    /// The same rule, except that an empty value passes (an optional field left empty).
    public var allowingEmpty: Rule {
        let inner = check
        return Rule(stopsFieldOnFailure: stopsFieldOnFailure) { value, values in value.isEmpty ? nil : inner(value, values) }
    }

    /// A whole or decimal number such as `42`, `-7` or `3.25`; an empty value passes.
    public static let number = Rule { value, _ in
        guard !value.isEmpty else { return nil }
        var digits = Substring(value)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isNumber = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        return isNumber ? nil : FieldError(key: "not_a_number")
    }
}
