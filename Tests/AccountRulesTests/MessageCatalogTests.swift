import Foundation
import Testing
@testable import AccountRules

struct MessageCatalogTests {
    let catalog = MessageCatalog(strings: [
        "greeting": "Hello {name}, welcome to {site}.",
        "twice": "{n} and {n}",
        "plain": "Nothing to fill.",
        "pair": "{a}|{b}",
    ])

    @Test func placeholdersAreFilledFromTheArguments() {
        #expect(catalog.text("greeting", ["name": "Ann", "site": "Frontdoor"]) == "Hello Ann, welcome to Frontdoor.")
        #expect(catalog.text("twice", ["n": "1"]) == "1 and 1")
        #expect(catalog.text("plain", ["unused": "x"]) == "Nothing to fill.")
        #expect(catalog.text("greeting", ["name": "Ann"]) == "Hello Ann, welcome to {site}.", "an unknown placeholder stays")
        #expect(MessageCatalog.english.text("too_short", ["count": "8"]) == "is too short (minimum is 8 characters)")
    }

    /// A filled-in value is text, not a template: its braces must come out as typed, whatever order the
    /// arguments are visited in.
    @Test func filledValuesAreNotFilledAgain() {
        #expect(catalog.text("pair", ["a": "{b}", "b": "{a}"]) == "{b}|{a}")
        #expect(catalog.text("greeting", ["name": "{site}", "site": "Frontdoor"]) == "Hello {site}, welcome to Frontdoor.")
    }

    @Test func aMissingKeyReturnsTheKey() {
        #expect(catalog.text("no_such_key") == "no_such_key")
        #expect(MessageCatalog.english.text("no_such_key", ["x": "y"]) == "no_such_key")
    }

    @Test func mergingReplacesAndAddsWithoutChangingTheOriginal() {
        let merged = MessageCatalog.english.merging(["sign_in_title": "Log in", "site_motto": "Come in"])
        #expect(merged.text("sign_in_title") == "Log in")
        #expect(merged.text("site_motto") == "Come in")
        #expect(merged.text("sign_up_title") == "Create your account", "other keys stay")
        #expect(MessageCatalog.english.text("sign_in_title") == "Sign in")
        #expect(merged.strings.count == MessageCatalog.english.strings.count + 1)
    }

    @Test func fullMessagesPutTheDisplayNameBeforeTheRulesMessage() {
        let english = MessageCatalog.english
        #expect(english.fullMessage(for: FieldError(key: "blank"), displayName: "Email") == "Email can't be blank")
        #expect(english.fullMessage(for: FieldError(key: "too_short", arguments: ["count": "8"], customMessage: "needs 8"),
                                    displayName: "Password") == "Password needs 8")
        let french = english.merging(["error_full_message": "{message} ({attribute})", "blank": "est vide"])
        #expect(french.fullMessage(for: FieldError(key: "blank"), displayName: "Courriel") == "est vide (Courriel)")
    }

    @Test func aFieldIsNamedByTheCatalogsFieldKeyElseByTheFallback() {
        #expect(MessageCatalog.english.displayName(of: "email", fallback: "E") == "Email")
        #expect(MessageCatalog.french.displayName(of: "email", fallback: "E") == "Adresse e-mail")
        #expect(MessageCatalog.german.displayName(of: "password", fallback: "P") == "Passwort")
        #expect(MessageCatalog.english.displayName(of: "username", fallback: "User name") == "User name", "an operator's field")
        #expect(MessageCatalog.english.merging(["field_username": "Handle"]).displayName(of: "username", fallback: "User name") == "Handle")
    }

    @Test func aConfirmationsOtherFieldIsNamedByTheCatalogThatWordsTheMessage() {
        let error = FieldError(key: "confirmation", arguments: ["attribute": "Password"], otherField: "password")
        #expect(MessageCatalog.german.fullMessage(for: error, displayName: "Wiederholung")
                == "„Wiederholung“ stimmt nicht mit „Passwort“ überein", "the German catalog's field_password, not the English argument")
        let unnamed = FieldError(key: "confirmation", arguments: ["attribute": "PIN"], otherField: "pin")
        #expect(MessageCatalog.english.fullMessage(for: unnamed, displayName: "PIN again") == "PIN again doesn't match PIN")
        let bare = FieldError(key: "confirmation", otherField: "pin")
        #expect(MessageCatalog.english.fullMessage(for: bare, displayName: "PIN again") == "PIN again doesn't match pin",
                "without a name, the field's own")
    }

    // MARK: - Every key in use exists

    /// The repository root, three levels above this file (Tests/AccountRulesTests/MessageCatalogTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of every file under `folder` whose name ends with `suffix`, by path relative to the root.
    static func files(in folder: String, endingWith suffix: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        let paths = try #require(FileManager.default.subpaths(atPath: base.path)).filter { $0.hasSuffix(suffix) }.sorted()
        return try paths.map { (folder + "/" + $0, try String(contentsOf: base.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Each `key` captured by `patterns` in `files`, with where it was found.
    static func keys(in files: [(path: String, text: String)], patterns: [Regex<(Substring, Substring)>]) -> [(key: String, path: String)] {
        files.flatMap { file in
            patterns.flatMap { pattern in file.text.matches(of: pattern).map { (String($0.output.1), file.path) } }
        }
    }

    @Test func everyKeyTheTemplatesUseIsInTheEnglishCatalog() throws {
        let templates = try Self.files(in: "templates", endingWith: ".mustache")
        let used = Self.keys(in: templates, patterns: [/\{\{\{?[#^\/&]?\s*t\.([A-Za-z0-9_]+)/])
        #expect(templates.count >= 10, "templates found at \(Self.root.path)")
        #expect(used.count >= 20)
        for (key, path) in used {
            #expect(MessageCatalog.english.strings[key] != nil, "\(path) uses t.\(key)")
        }
    }

    @Test func everyKeyTheSourcesPassIsInTheEnglishCatalog() throws {
        let sources = try Self.files(in: "Sources", endingWith: ".swift")
        /// `prefix`, then a quoted snake_case key (captured), then `suffix`.
        func quotedKey(after prefix: String, before suffix: String = "") throws -> Regex<(Substring, Substring)> {
            // Simple word boundaries: with Unicode's, `catalog.text` is one word and `\btext` would not match in it.
            try Regex(prefix + #""([a-z][a-z0-9_]*)""# + suffix, as: (Substring, Substring).self).wordBoundaryKind(.simple)
        }
        let used = Self.keys(in: sources, patterns: [
            // catalog.text("key") and text("key", [...]); not the config reader's text("name", \.path)
            try quotedKey(after: #"\btext\(\s*"#, before: #"\s*(?:\)|,\s*\[)"#),
            try quotedKey(after: #"\bFlash\(\s*"#),
            try quotedKey(after: #"\b(?:messageKey|hintKey)\s*:\s*"#),
            // Page titles and texts handed over as keys: title: "…", text: "…", ["title": "…"].localized(context)
            try quotedKey(after: #"\b(?:title|text)\s*:\s*"#),
            try quotedKey(after: #""(?:title|text|button)"\s*:\s*"#),
        ])
        #expect(Set(used.map(\.key)).isSuperset(of: ["field_email", "signed_in_as", "form_has_errors", "error_full_message", "signed_out", "error_not_found", "password_hint", "check_email_title"]),
                "the patterns still find the keys they were written for")
        for (key, path) in used {
            #expect(MessageCatalog.english.strings[key] != nil, "\(path) passes \"\(key)\"")
        }
    }

    @Test func everyMessageHasWords() {
        for (key, text) in MessageCatalog.english.strings {
            #expect(!text.trimmingWhitespace().isEmpty, "\(key)")
        }
    }
}
