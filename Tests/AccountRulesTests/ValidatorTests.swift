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
            "Password is too short (minimum is 12 characters)",
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

    // MARK: - Field names as the form labels them

    @Test func aLabelBeatsTheCatalogsFieldNameWhichBeatsTheDisplayNameGivenAtValidation() {
        let validator = Validator([
            Field("password", displayName: "Password (given)", rules: [.required]),
            Field("nickname", displayName: "Nickname (given)", rules: [.required]),
        ])
        let errors = validator.validate([:])
        let catalog = MessageCatalog.english
        #expect(errors.messages(for: "password", in: catalog, labels: ["password": "New password"]) == ["New password can't be blank"])
        #expect(errors.messages(for: "password", in: catalog) == ["Password can't be blank"], "the catalog's field_password")
        #expect(errors.messages(for: "nickname", in: catalog) == ["Nickname (given) can't be blank"], "no field_nickname: the given name")
        #expect(errors.messages(for: "nickname", in: catalog.merging(["field_nickname": "Pen name"])) == ["Pen name can't be blank"])
        #expect(errors.messages(for: "nickname", in: catalog, labels: ["password": "New password"]) == ["Nickname (given) can't be blank"],
                "another field's label does not name this one")
    }

    @Test func aConfirmationNamesItsOtherFieldByTheLabelElseTheCatalog() {
        let errors = AccountForms.signUp().validate(["email": "ann@example.com", "password": "correct horse", "password_confirmation": "x"])
        #expect(errors.messages(for: "password_confirmation", in: .english, labels: ["password": "New password"])
                == ["Password confirmation doesn't match New password"])
        #expect(errors.messages(for: "password_confirmation", in: .english,
                                labels: ["password": "New password", "password_confirmation": "Again"])
                == ["Again doesn't match New password"])
        #expect(errors.messages(for: "password_confirmation", in: .english.merging(["field_password": "Secret"]))
                == ["Password confirmation doesn't match Secret"], "no label: the catalog names the other field")
        let custom = Validator([Field("pin_again", displayName: "PIN again", rules: [.confirms("pin", displayName: "PIN")])])
            .validate(["pin": "1234", "pin_again": "9999"])
        #expect(custom.messages(for: "pin_again", in: .english) == ["PIN again doesn't match PIN"], "neither: the name given to the rule")
    }

    @Test func frenchMessagesNameTheFieldInFrenchBeforeAColon() {
        let nbsp = "\u{00A0}"
        let errors = AccountForms.signUp().validate(["email": "", "password": "abc", "password_confirmation": "abd"])
        let french = MessageCatalog.french
        #expect(errors.messages(for: "email", in: french) == ["Adresse e-mail\(nbsp): ce champ doit être rempli"])
        #expect(errors.messages(for: "password", in: french) == ["Mot de passe\(nbsp): cette valeur est trop courte (au moins 12 caractères)"])
        #expect(errors.messages(for: "password_confirmation", in: french)
                == ["Confirmation du mot de passe\(nbsp): cette valeur ne correspond pas au champ «\(nbsp)Mot de passe\(nbsp)»"])
        #expect(errors.messages(for: "password_confirmation", in: french, labels: ["password": "Nouveau mot de passe"])
                == ["Confirmation du mot de passe\(nbsp): cette valeur ne correspond pas au champ «\(nbsp)Nouveau mot de passe\(nbsp)»"])
    }

    @Test func germanMessagesQuoteTheFieldsGermanName() {
        let errors = AccountForms.signUp().validate(["email": "ann@example", "password": "", "password_confirmation": "x"])
        let german = MessageCatalog.german
        #expect(errors.messages(for: "email", in: german) == ["„E-Mail-Adresse“ ist keine gültige E-Mail-Adresse"])
        #expect(errors.messages(for: "password", in: german) == ["„Passwort“ muss ausgefüllt werden"])
        #expect(errors.messages(for: "password_confirmation", in: german) == ["„Passwortbestätigung“ stimmt nicht mit „Passwort“ überein"])
        let blank = AccountForms.signUp().validate([:])
        #expect(blank.messages(for: "email", in: german) == ["„E-Mail-Adresse“ muss ausgefüllt werden"])
    }
}
