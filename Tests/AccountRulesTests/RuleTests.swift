import Testing
@testable import AccountRules

struct RuleTests {
    func check(_ rule: Rule, _ value: String, _ values: [String: String] = [:]) -> FieldError? {
        rule.check(value, values)
    }

    @Test func requiredRefusesEmptyAndWhiteSpaceOnlyValues() {
        #expect(check(.required, "") == FieldError(key: "blank"))
        #expect(check(.required, " \t\n") == FieldError(key: "blank"))
        #expect(check(.required, " a ") == nil)
    }

    @Test func requiredStopsTheFieldButOtherRulesDoNot() {
        #expect(Rule.required.stopsFieldOnFailure)
        #expect(!Rule.minLength(1).stopsFieldOnFailure)
        #expect(Rule.required.message("must be given").stopsFieldOnFailure, "a custom message keeps the rule's behaviour")
    }

    @Test func minLengthCountsCharactersAndReportsTheMinimum() {
        #expect(check(.minLength(4), "abc") == FieldError(key: "too_short", arguments: ["count": "4"]))
        #expect(check(.minLength(4), "abcd") == nil)
        #expect(check(.minLength(4), "éèêë") == nil, "four characters, eight UTF-8 bytes")
    }

    @Test func maxLengthAcceptsUpToTheMaximumAndReportsIt() {
        #expect(check(.maxLength(5), "abcde") == nil)
        #expect(check(.maxLength(5), "abcdef") == FieldError(key: "too_long", arguments: ["count": "5"]))
        #expect(check(.maxLength(2), "👍🏽👍🏽") == nil, "two characters even though each is several scalars")
    }

    @Test func emailUsesEmailFormat() {
        #expect(check(.email, "ann@example.com") == nil)
        #expect(check(.email, "ann@example") == FieldError(key: "invalid_email"))
    }

    @Test func confirmsComparesWithTheOtherFieldAndNamesIt() {
        let rule = Rule.confirms("password", displayName: "Password")
        #expect(check(rule, "secret123", ["password": "secret123"]) == nil)
        #expect(check(rule, "secret124", ["password": "secret123"]) == FieldError(key: "confirmation", arguments: ["attribute": "Password"], otherField: "password"))
        #expect(check(rule, "x", [:]) != nil, "a missing field counts as empty")
        #expect(check(rule, "", [:]) == nil)
    }

    @Test func charactersRefusesAnyCharacterOutsideTheAllowedSet() {
        let rule = Rule.characters { $0.isLetter || $0.isNumber || $0 == "_" }
        #expect(check(rule, "ann_42") == nil)
        #expect(check(rule, "ann-42") == FieldError(key: "invalid"))
    }

    @Test func messageReplacesTheWordingOnlyWhenTheRuleFails() {
        let rule = Rule.minLength(4).message("should have at least 4 characters")
        #expect(check(rule, "abcd") == nil)
        #expect(check(rule, "abc") == FieldError(key: "too_short", arguments: ["count": "4"], customMessage: "should have at least 4 characters"))
    }
}
