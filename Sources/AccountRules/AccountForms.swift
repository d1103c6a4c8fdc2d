// AccountForms.swift: the validators for the account forms, shared by the server and native clients.

/// Field names and validators of the forms every Frontdoor client fills in.
public enum AccountForms {
    /// The password lengths accepted when no configuration says otherwise (Devise's 6…128, the minimum raised to what OWASP ASVS 2.1.1 asks).
    public static let defaultPasswordLength = 12...128

    /// Sign-up: email, password, password confirmation; `extra` adds operator-declared fields.
    /// Passwords on `commonPasswords` (or a repeated character, or a keyboard run) are refused as `common_password`.
    public static func signUp(passwordLength: ClosedRange<Int> = defaultPasswordLength, commonPasswords: CommonPasswords = .builtIn,
                              catalog: MessageCatalog = .english, extra: [Field] = []) -> Validator {
        Validator([
            Field("email", displayName: catalog.text("field_email"), rules: [.required, .email]),
            Field("password", displayName: catalog.text("field_password"),
                  rules: [.required, .minLength(passwordLength.lowerBound), .maxLength(passwordLength.upperBound),
                          .notCommon(commonPasswords, within: passwordLength)]),
            Field("password_confirmation", displayName: catalog.text("field_password_confirmation"),
                  rules: [.confirms("password", displayName: catalog.text("field_password"))]),
        ] + extra)
    }
}
