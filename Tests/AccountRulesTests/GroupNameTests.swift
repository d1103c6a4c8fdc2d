// GroupNameTests.swift: what a group may be called (GroupName.swift), and the rule's wording in every language.
import Testing
@testable import AccountRules

struct GroupNameTests {
    @Test(arguments: ["admins", "Ops", "team-a_b.c", "dept:eng", "eng/ops", "a+b", "x@y", String(repeating: "g", count: 64)])
    func namesThatAreAccepted(name: String) {
        #expect(GroupName.isValid(name))
        #expect(GroupName.validator().validate(["group": name]).isEmpty)
    }

    @Test(arguments: ["", "a,b", "a b", "a\tb", "a\u{7}b", "line\nbreak", "quote\"d", "back\\slash", "semi;colon", "équipe",
                      "Ａdmins", String(repeating: "g", count: 65)])
    func namesThatWouldCutOrForgeAHeaderAreRefused(name: String) {
        #expect(!GroupName.isValid(name))
        #expect(!GroupName.validator().validate(["group": name]).isEmpty)
    }

    @Test func namesCompareWithoutCase() {
        #expect(GroupName.normalized("Admins") == GroupName.normalized("ADMINS"))
    }

    @Test func theRuleIsWordedInEveryLanguage() {
        for catalog in [MessageCatalog.english, .french, .german] {
            let errors = GroupName.validator(catalog: catalog).validate(["group": "a,b"])
            #expect(errors.keys(for: "group") == ["invalid_group_name"])
            #expect(catalog.strings["invalid_group_name"] != nil && catalog.strings["field_group"] != nil)
        }
        #expect(GroupName.validator().validate(["group": "a,b"]).messages(for: "group", in: .english)
                == ["Group name may contain only letters (a–z), digits and - _ . : @ + / (no spaces or commas)"])
        #expect(GroupName.validator().validate(["group": String(repeating: "g", count: 65)]).keys(for: "group") == ["too_long"])
    }
}
