// ProfileFieldTests.swift: declared profile fields: their rules, messages and names, and the profile form.
import Testing
@testable import AccountRules

struct ProfileFieldTests {
    /// The issue's example: a required username of 4 to 20 characters, "should have at least 4 characters", shown as "Username".
    let username = ProfileField.declared(name: "username", label: "Username", required: true, minLength: 4, maxLength: 20,
                                         pattern: "[A-Za-z0-9_]+", unique: true,
                                         messages: ["too_short": "should have at least 4 characters",
                                                    "invalid": "may hold only letters, digits and _"])

    func messages(_ field: ProfileField, _ value: String) -> [String] {
        Validator([field.field]).validate([field.name: value]).messages(for: field.name, in: .english)
    }

    @Test func theIssuesUsernameIsWordedAsDeclared() {
        #expect(username.name == "username" && username.field.displayName == "Username" && username.unique && username.onSignUp)
        #expect(messages(username, "abc") == ["Username should have at least 4 characters"])
        #expect(messages(username, "") == ["Username can't be blank"], "a blank value stops the other rules")
        #expect(messages(username, String(repeating: "a", count: 21)) == ["Username is too long (maximum is 20 characters)"])
        #expect(messages(username, "ann lee") == ["Username may hold only letters, digits and _"])
        #expect(messages(username, "Ann_Lee").isEmpty)
    }

    @Test func oneMessageReplacesEveryRulesUnlessARuleHasItsOwn() {
        let field = ProfileField.declared(name: "code", required: true, minLength: 3, pattern: "[0-9]+", message: "needs three digits",
                                          messages: ["blank": "is missing"])
        #expect(field.field.displayName == "code", "the name when no label is given")
        #expect(messages(field, "") == ["code is missing"])
        #expect(messages(field, "1x") == ["code needs three digits", "code needs three digits"])
        #expect(messages(field, "123").isEmpty)
    }

    @Test func anOptionalFieldMayStayEmptyWhateverItsRules() {
        for type in ProfileField.inputTypes {
            let field = ProfileField.declared(name: "extra", minLength: 5, pattern: "[a-z]+", inputType: type)
            #expect(messages(field, "").isEmpty, "\(type)")
        }
    }

    @Test func theTypeAddsItsRule() {
        let email = ProfileField.declared(name: "backup", label: "Backup address", inputType: "email")
        #expect(email.inputType == "email")
        #expect(messages(email, "ann@example") == ["Backup address is not a valid email address"])
        #expect(messages(email, "ann@example.com").isEmpty)
        let number = ProfileField.declared(name: "age", label: "Age", inputType: "number", messages: ["not_a_number": "must be a number"])
        for good in ["42", "-7", "+3", "3.25"] { #expect(messages(number, good).isEmpty, "\(good)") }
        for bad in ["4 2", "1e3", "3.", ".5", "-", "٣", "12a"] { #expect(messages(number, bad) == ["Age must be a number"], "\(bad)") }
        let tel = ProfileField.declared(name: "phone", inputType: "tel")
        #expect(messages(tel, "not a number").isEmpty, "tel is only the input's type")
    }

    @Test func everyDeclaredFieldIsOneLineAndAtMostTheDefaultLength() {
        let field = ProfileField.declared(name: "city", label: "City")
        #expect(messages(field, "Leeds\nYorkshire") == ["City is invalid"])
        #expect(messages(field, "Tab\there") == ["City is invalid"])
        #expect(messages(field, String(repeating: "a", count: ProfileField.defaultMaxLength)).isEmpty)
        #expect(messages(field, String(repeating: "a", count: ProfileField.defaultMaxLength + 1))
                == ["City is too long (maximum is 255 characters)"])
    }

    @Test func aPatternMustMatchTheWholeValue() {
        let rule = Validator([Field("x", displayName: "X", rules: [.pattern("[a-z]+")])])
        #expect(rule.validate(["x": "abc"]).isEmpty)
        #expect(rule.validate(["x": "abc1"]).keys(for: "x") == ["invalid"])
        #expect(rule.validate(["x": "1abc"]).keys(for: "x") == ["invalid"])
        let broken = Validator([Field("x", displayName: "X", rules: [.pattern("[a-")])])
        #expect(broken.validate(["x": "a"]).keys(for: "x") == ["invalid"], "a pattern that does not compile never matches")
    }

    @Test func namesAreLowerCaseIdentifiersThatTheFormsDoNotUseAlready() {
        for good in ["username", "a", "shoe_size2"] { #expect(ProfileField.isValidName(good), "\(good)") }
        for bad in ["", "Username", "2fa", "_x", "user-name", "user name", "ünï", String(repeating: "a", count: 41),
                    "email", "password", "display_name", "csrf_token", "invite"] {
            #expect(!ProfileField.isValidName(bad), "\(bad)")
        }
    }

    @Test func theProfileFormIsTheDisplayNameThenTheDeclaredFields() {
        let validator = AccountForms.profile([username])
        #expect(validator.fields.map(\.name) == ["display_name", "username"])
        let errors = validator.validate(["display_name": String(repeating: "n", count: 101), "username": "ab"])
        #expect(errors.messages(for: "display_name", in: .english) == ["Display name is too long (maximum is 100 characters)"])
        #expect(errors.fieldNames == ["display_name", "username"])
        #expect(validator.validate(["username": "annie"]).isEmpty, "the display name is optional")
        #expect(validator.validate(["display_name": "Ann\u{0}Lee", "username": "annie"]).keys(for: "display_name") == ["invalid"])
    }

    @Test func theNewWordingIsInTheCatalog() {
        for key in ["not_a_number", "profile_title", "profile_button", "profile_updated", "display_name_hint"] {
            #expect(MessageCatalog.english.strings[key] != nil, "\(key)")
        }
    }
}
