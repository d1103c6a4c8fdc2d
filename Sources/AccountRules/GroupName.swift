// GroupName.swift: what a group's name may be (`frontdoor group add NAME`), shared by the server and native clients.
//
// Options: none. A name is 1 to 64 characters, each an ASCII letter or digit or one of `- _ . : @ + /`. Why so
// narrow: names travel in the gate's `Remote-Groups` header as a comma-separated list, and in nginx's
// `FRONTDOOR_ALLOW` split on spaces and commas, so a comma, a space or a control character would cut or forge a name;
// a quote or a backslash would confuse a list parser that honours quoted strings; and a header value is only safe as
// ASCII (RFC 9110 §5.5). Two names that differ only in case are one group (`normalized`).

/// The group name rule.
public enum GroupName {
    /// The longest name accepted.
    public static let maximumLength = 64
    /// The characters allowed besides ASCII letters and digits.
    public static let punctuation: Set<Character> = ["-", "_", ".", ":", "@", "+", "/"]

    /// True when `name` may name a group.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumLength && name.allSatisfy(isAllowed)
    }

    /// The form names are compared in: `Admins` and `admins` are one group.
    public static func normalized(_ name: String) -> String { name.lowercased() }

    static func isAllowed(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || punctuation.contains(character)
    }

    /// The rules of a group name as a form field named `group` (the command line words its errors from it).
    public static func validator(catalog: MessageCatalog = .english) -> Validator {
        Validator([
            Field("group", displayName: catalog.text("field_group"), rules: [
                .required, .maxLength(maximumLength),
                Rule { value, _ in value.allSatisfy(isAllowed) ? nil : FieldError(key: "invalid_group_name") },
            ]),
        ])
    }
}
