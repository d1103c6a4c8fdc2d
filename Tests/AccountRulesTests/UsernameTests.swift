// UsernameTests.swift: the username rule and the name made from an address (AccountRules' Username).
import Testing
@testable import AccountRules

struct UsernameTests {
    @Test func theRuleTakesLettersDigitsAndThreeMarksStartingWithALetter() {
        #expect(Username.problem("ann") == nil)
        #expect(Username.problem("Ann.Lee_2-b") == nil)
        #expect(Username.problem(String(repeating: "a", count: 32)) == nil)
        #expect(Username.problem(String(repeating: "a", count: 33))?.key == "too_long")
        #expect(Username.problem("")?.key == "blank")
        #expect(Username.problem("ann lee")?.key == "username_characters")
        #expect(Username.problem("zoë")?.key == "username_characters", "ASCII only: the index lower-cases ASCII alike everywhere")
        #expect(Username.problem("ann@example.com")?.key == "username_characters")
        #expect(Username.problem("42")?.key == "username_start", "an app keyed on the numeric account id must never meet one")
        #expect(Username.problem("_ann")?.key == "username_start")
        #expect(Username.problem("ann.")?.key == "username_marks", "Gitea refuses a name ending in a mark")
        #expect(Username.problem("ann--lee")?.key == "username_marks")
        #expect(Username.problem("ann._lee")?.key == "username_marks")
        #expect(Username.problem("a.n-n_e") == nil)
        #expect(Username.problem("Admin")?.key == "username_reserved")
        #expect(Username.problem("ROOT")?.key == "username_reserved")
    }

    @Test func aNameMadeFromAnAddressFollowsTheRule() {
        #expect(Username.base(from: "Ann@Example.com") == "ann")
        #expect(Username.base(from: "ann.lee+news@example.com") == "ann.leenews")
        #expect(Username.base(from: "12345@example.com") == "u12345")
        #expect(Username.base(from: "zoë@example.com") == "zo")
        #expect(Username.base(from: "ë@example.com") == "user")
        #expect(Username.base(from: "_@example.com") == "user")
        #expect(Username.base(from: "ann..lee_-x_@example.com") == "ann.lee_x")
        #expect(Username.base(from: "9_@example.com") == "u9")
        #expect(Username.base(from: String(repeating: "x", count: 60) + "@example.com").count == 32)
        for address in ["Ann@Example.com", "12345@x", "ë@x", "-a@x", "a-@x", "a..b@x", String(repeating: "x", count: 31) + ".y@x",
                        String(repeating: "x", count: 60) + "@x"] {
            let made = Username.base(from: address)
            #expect(Username.problem(made) == nil || Username.problem(made)?.key == "username_reserved", "\(address) → \(made)")
        }
    }

    @Test func aClashCandidateKeepsToTheLongestLength() {
        #expect(Username.candidate("ann", 1) == "ann")
        #expect(Username.candidate("ann", 2) == "ann-2")
        let long = String(repeating: "x", count: 32)
        #expect(Username.candidate(long, 12) == String(repeating: "x", count: 29) + "-12")
        #expect(Username.candidate(String(repeating: "x", count: 29) + ".yy", 10) == String(repeating: "x", count: 29) + "-10",
                "no mark left before the suffix")
    }

    @Test func theFormRulesLetAnEmptyOptionalNamePass() {
        let optional = Validator([Field("username", displayName: "Username", rules: Username.rules(required: false))])
        #expect(optional.validate(["username": ""]).isEmpty)
        #expect(!optional.validate(["username": "9lives"]).isEmpty)
        let required = Validator([Field("username", displayName: "Username", rules: Username.rules(required: true))])
        #expect(!required.validate(["username": ""]).isEmpty)
    }
}
