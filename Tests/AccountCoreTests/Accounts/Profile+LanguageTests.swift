// Profile+LanguageTests.swift: the account's preferred language in Profile: read with the values, set or cleared by
// the profile form, set by the language switcher, checked against the offered languages, audited when it changes.
import AccountRules
import Foundation
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

/// Services offering `languages` (empty: any well-formed code), with one account whose preference is `language`.
private struct LanguageWorld {
    static let client = ClientInfo(userAgent: "Browser/1", remoteAddress: "192.0.2.1")

    let database: AppDatabase
    let services: AccountServices
    let account: Int64

    init(languages: [String] = ["en", "fr", "de"], language: String? = "fr") throws {
        database = try TestDatabase.make()
        var configuration = CoreConfiguration(password: PasswordPolicy(hashing: cheapHashing))
        configuration.languages = languages
        let clock = FixedClock()
        services = AccountServices(database: database, configuration: configuration, validator: AccountForms.signUp(),
                                   composer: LineComposer(), transport: OutboxTransport(folder: NSTemporaryDirectory() + "frontdoor-unused-outbox"),
                                   logger: Logger(label: "test"), clock: clock, random: SeededRandomSource(seed: 5))
        account = try database.write { tx in
            try Account.insert(address: "ann@example.com", passwordHash: "x", verified: true, language: language, now: clock.now(),
                               in: tx).account
        }
    }

    var profile: Profile { services.profile }

    /// The stored column, read directly (nil when NULL).
    func storedLanguage() throws -> String? {
        try database.read { tx in try tx.value(String.self, "SELECT language FROM account WHERE id = ?", [account]) }
    }

    /// The details of the account's profile_updated audit rows, oldest first.
    func auditDetails() throws -> [String] {
        try services.audit.list(AuditFilter(accountId: account, event: .profileUpdated)).map(\.detail).reversed()
    }

    func update(_ form: [String: String]) throws {
        try profile.update(accountId: account, form: form, client: Self.client)
    }
}

struct ProfileLanguageTests {
    @Test func theValuesCarryThePreferenceAndTheFormShowsItOrEmpty() throws {
        let world = try LanguageWorld(language: "fr")
        let values = try world.profile.values(of: world.account)
        #expect(values.language == "fr")
        #expect(values.form["language"] == "fr")
        let browser = try LanguageWorld(language: nil)
        #expect(try browser.profile.values(of: browser.account).language == nil)
        #expect(try browser.profile.values(of: browser.account).form["language"] == "", "empty: same as the browser")
        #expect(try world.profile.language(of: world.account) == "fr")
        #expect(try browser.profile.language(of: browser.account) == nil)
        #expect(try world.profile.language(of: world.account + 100) == nil, "an account that is gone")
    }

    @Test func updateSetsTheLanguageAndAuditsThatItChanged() throws {
        let world = try LanguageWorld(language: nil)
        try world.update(["display_name": "", "language": "de"])
        #expect(try world.storedLanguage() == "de")
        #expect(try world.profile.values(of: world.account).language == "de")
        try world.update(["display_name": "Ann", "language": "fr"])
        #expect(try world.storedLanguage() == "fr")
        #expect(try world.auditDetails() == ["language", "display_name, language"])
    }

    @Test func anEmptyChoiceClearsThePreferenceToNull() throws {
        let world = try LanguageWorld(language: "fr")
        try world.update(["display_name": "", "language": ""])
        let isNull = try world.database.read { tx in
            try tx.value(Bool.self, "SELECT language IS NULL AS unset FROM account WHERE id = ?", [world.account])
        }
        #expect(isNull == true, "NULL, not an empty string")
        #expect(try world.profile.values(of: world.account).language == nil)
        #expect(try world.auditDetails() == ["language"])
    }

    @Test func aFormWithoutTheChoiceLeavesThePreferenceAsItIs() throws {
        let world = try LanguageWorld(language: "de")
        try world.update(["display_name": "Ann"])
        #expect(try world.storedLanguage() == "de")
        #expect(try world.auditDetails() == ["display_name"], "the language did not change, so it is not named")
    }

    @Test func submittingTheSameLanguageAgainIsNotAChange() throws {
        let world = try LanguageWorld(language: "fr")
        try world.update(["display_name": "", "language": "fr"])
        #expect(try world.auditDetails() == [""])
        #expect(try world.storedLanguage() == "fr")
    }

    @Test(arguments: ["es", "FR", "fr-CH", "english", "fr; DROP TABLE account"])
    func aLanguageNotOfferedIsAnInclusionErrorAndNothingIsWritten(choice: String) throws {
        let world = try LanguageWorld(language: "fr")
        let keys = invalidKeys { try world.update(["display_name": "Changed", "language": choice]) }
        #expect(keys == ["language:inclusion"])
        #expect(try world.storedLanguage() == "fr")
        #expect(try world.profile.values(of: world.account).displayName == "", "the display name was not written either")
        #expect(try world.auditDetails().isEmpty)
    }

    @Test func theInclusionErrorComesWithTheFormsOtherErrorsAndIsWorded() throws {
        let world = try LanguageWorld(language: nil)
        let error = #expect(throws: AccountError.self) {
            try world.update(["display_name": String(repeating: "a", count: 101), "language": "es"])
        }
        guard case .invalid(let errors) = error else { Issue.record("expected .invalid, got \(String(describing: error))"); return }
        #expect(errors.fieldNames == ["display_name", "language"])
        #expect(errors.messages(for: "language", in: .english) == ["Language is not one of the choices"])
        #expect(errors.messages(for: "language", in: .french) == ["Langue\u{00A0}: cette valeur ne fait pas partie des choix proposés"])
        #expect(errors.messages(for: "language", in: .german) == ["„Sprache“ ist keine der angebotenen Möglichkeiten"])
    }

    @Test func setLanguageSetsAnOfferedLanguageWithoutAuditing() throws {
        let world = try LanguageWorld(language: nil)
        try world.profile.setLanguage("de", of: world.account)
        #expect(try world.storedLanguage() == "de")
        try world.profile.setLanguage("fr", of: world.account)
        #expect(try world.profile.language(of: world.account) == "fr")
        #expect(try world.auditDetails().isEmpty, "a change of wording only")
    }

    @Test(arguments: ["es", "", "FR", "xx-invalid!"])
    func setLanguageIgnoresALanguageNotOffered(language: String) throws {
        let world = try LanguageWorld(language: "fr")
        try world.profile.setLanguage(language, of: world.account)
        #expect(try world.storedLanguage() == "fr")
    }

    @Test func withoutConfiguredLanguagesAnyWellFormedCodeIsAccepted() throws {
        let world = try LanguageWorld(languages: [], language: nil)
        try world.update(["display_name": "", "language": "pt-br"])
        #expect(try world.storedLanguage() == "pt-br")
        #expect(invalidKeys { try world.update(["display_name": "", "language": "Portuguese!"]) } == ["language:inclusion"])
        try world.profile.setLanguage("nl", of: world.account)
        #expect(try world.storedLanguage() == "nl")
        try world.profile.setLanguage("not a code", of: world.account)
        #expect(try world.storedLanguage() == "nl")
    }
}
