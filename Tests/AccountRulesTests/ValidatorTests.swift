import Testing
@testable import AccountRules

struct ValidatorTests {
    @Test func everyProblemOfTheSignUpFormIsReportedAtOnce() {
        let errors = AccountForms.signUp().validate([
            "email": "ann@example", "password": "abc", "password_confirmation": "abd",
        ])
        let sentences = errors.fieldNames.flatMap { errors.messages(for: $0, in: .english) }
        #expect(sentences == [
            "Email is not a valid email address",
            "Password is too short (minimum is 8 characters)",
            "Password confirmation doesn't match Password",
        ])
        #expect(errors.fieldNames == ["email", "password", "password_confirmation"])
    }

    @Test func requiredStopsTheOtherRulesOfItsFieldOnly() {
        let validator = Validator([
            Field("username", displayName: "Username", rules: [.required, .minLength(4), .characters(\.isLetter)]),
            Field("nickname", displayName: "Nickname", rules: [.minLength(4), .characters(\.isLetter)]),
        ])
        let errors = validator.validate(["username": "  ", "nickname": "a1"])
        #expect(errors.keys(for: "username") == ["blank"])
        #expect(errors.keys(for: "nickname") == ["too_short", "invalid"], "without required, every rule runs")
        #expect(validator.validate([:]).keys(for: "username") == ["blank"], "a missing field is blank")
    }

    @Test func aCustomMessageFollowsTheDisplayName() {
        let validator = Validator([
            Field("username", displayName: "Username", rules: [.required, .minLength(4).message("should have at least 4 characters")]),
        ])
        let errors = validator.validate(["username": "ann"])
        #expect(errors.messages(for: "username", in: .english) == ["Username should have at least 4 characters"])
        #expect(errors.keys(for: "username") == ["too_short"])
    }

    @Test func maxLengthIsReportedWithItsMaximum() {
        let validator = Validator([Field("bio", displayName: "Bio", rules: [.maxLength(10)])])
        #expect(validator.validate(["bio": String(repeating: "x", count: 10)]).isEmpty)
        let errors = validator.validate(["bio": String(repeating: "x", count: 11)])
        #expect(errors.messages(for: "bio", in: .english) == ["Bio is too long (maximum is 10 characters)"])
    }

    @Test func validValuesGiveNoErrors() {
        let errors = AccountForms.signUp().validate([
            "email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse",
        ])
        #expect(errors.isEmpty)
        #expect(errors.fieldNames.isEmpty)
    }

    @Test func fieldNamesListEachFailedFieldOnceInDeclarationOrder() {
        let validator = Validator([
            Field("b", displayName: "B", rules: [.minLength(3), .characters(\.isNumber)]),
            Field("a", displayName: "A", rules: [.required]),
        ])
        let errors = validator.validate(["b": "x"])
        #expect(errors.fieldNames == ["b", "a"])
        #expect(errors.entries.count == 3)
        #expect(errors.keys(for: "c").isEmpty)
    }

    @Test func fieldsCanBeLookedUpAndAdded() {
        let validator = Validator([Field("email", displayName: "Email", rules: [.required])])
            .adding([Field("username", displayName: "Username", rules: [.required])])
        #expect(validator.fields.map(\.name) == ["email", "username"])
        #expect(validator.field(named: "username")?.displayName == "Username")
        #expect(validator.field(named: "nope") == nil)
        #expect(validator.validate([:]).fieldNames == ["email", "username"])
    }
}
