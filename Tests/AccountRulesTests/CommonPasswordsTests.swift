import AccountRules
import Testing

/// The sign-up validator refuses common passwords (ASVS 2.1.7) whatever their length, by list and by pattern.
struct CommonPasswordsTests {
    let validator = AccountForms.signUp()

    func keys(_ password: String) -> [String] {
        validator.validate(["email": "ann@example.com", "password": password, "password_confirmation": password]).keys(for: "password")
    }

    @Test(arguments: ["password1234", "Password1234", " QWERTY123456 ", "1q2w3e4r5t6y", "correct horse battery staple",
                      "aaaaaaaaaaaaaa", "1234567890123", "qwertyuiopqw", "mnbvcxzmnbvc", "ponmlkjihgfedc"])
    func commonOnesAreRefused(password: String) {
        #expect(keys(password) == ["common_password"])
    }

    @Test(arguments: ["correct horse battery", "Tr0ub4dor&3 is long", "1357924680135", "qwertyuiop and more"])
    func othersPass(password: String) {
        #expect(keys(password).isEmpty)
    }

    @Test func anOperatorListAddsToTheBuiltInOne() {
        let list = CommonPasswords(adding: ["Summer2026!!", "", "  "])
        #expect(list.count == CommonPasswords.builtIn.count + 1)
        let validator = AccountForms.signUp(commonPasswords: list)
        let errors = validator.validate(["email": "a@example.com", "password": "summer2026!!", "password_confirmation": "summer2026!!"])
        #expect(errors.messages(for: "password", in: .english)
            == ["Password is one of the most common passwords: choose one that is harder to guess"])
        #expect(validator.validate(["email": "a@example.com", "password": "password1234", "password_confirmation": "password1234"])
            .keys(for: "password") == ["common_password"])
    }

    @Test func theBuiltInListOnlyHoldsPasswordsTheDefaultLengthAccepts() {
        // A shorter entry could never match: the length rule refuses it first, so the list would be misleading.
        #expect(CommonPasswords.builtIn.count > 70)
    }
}
