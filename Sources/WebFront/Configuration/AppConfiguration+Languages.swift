// AppConfiguration+Languages.swift: config section `languages` and the file-only `messages` overrides.
//
// Options:
//   languages.available   the languages offered, in the switcher's order; a code without a built-in catalog is
//                         offered in English plus its `messages` (a partial translation)
//   languages.default     for a visitor whose account and browser name none of them, and for mail to an address
//                         without an account
//   messages              file only: language code → message key → text, replacing the built-in wording without a
//                         rebuild; a key must be a built-in one or a profile field's `field_<name>`
//   logo_url              an image shown before the site name (a path nginx serves, or an https URL)
// Defaults: the key table (ConfigKeys+Table.swift).
import AccountRules
import Foundation
import Yams

extension AppConfiguration {
    /// Config section `languages`, and `messages`.
    public struct Languages: Sendable, Equatable {
        /// `available`, as written.
        public var available = "en, fr, de"
        /// `default`.
        public var defaultLanguage = "en"
        /// `messages`: the operator's wording by language, then key.
        public var messages: [String: [String: String]] = [:]

        /// The offered codes in order, lower-cased, each once.
        public var availableList: [String] {
            var seen = Set<String>()
            return AppConfiguration.commaList(available).map { $0.lowercased() }.filter { seen.insert($0).inserted }
        }
    }
}

/// Reads, checks and prints the `messages` mapping.
public enum MessagesConfig {
    static let key = "messages"

    /// `messages: {fr: {sign_in_title: "…"}}` as a dictionary; throws `ConfigError` naming the bad entry.
    static func parse(_ node: Node) throws -> [String: [String: String]] {
        guard let languages = node.mapping else { throw ConfigError("\(key): expected a mapping of language codes to messages") }
        var result: [String: [String: String]] = [:]
        for (codeNode, messagesNode) in languages {
            let code = (codeNode.string ?? "").lowercased()
            guard let messages = messagesNode.mapping else { throw ConfigError("\(key).\(code): expected a mapping of message keys to texts") }
            var texts: [String: String] = [:]
            for (keyNode, textNode) in messages {
                let name = keyNode.string ?? ""
                guard let text = textNode.scalar?.string else { throw ConfigError("\(key).\(code).\(name): expected a text") }
                texts[name] = text
            }
            result[code] = texts
        }
        return result
    }

    /// Checks the codes and keys against the offered languages, the built-in catalog and the declared fields.
    static func validate(_ languages: AppConfiguration.Languages, profileFields: [String]) throws {
        let offered = languages.availableList
        guard !offered.isEmpty else { throw ConfigError("languages.available must name at least one language") }
        for code in offered where !MessageCatalog.isLanguageCode(code) {
            throw ConfigError("languages.available: \(code) is not a language code such as en, fr or pt-br")
        }
        guard offered.contains(languages.defaultLanguage.lowercased()) else {
            throw ConfigError("languages.default must be one of languages.available (got \"\(languages.defaultLanguage)\")")
        }
        let fieldKeys = Set(profileFields.map { "field_" + $0 })
        for (code, texts) in languages.messages {
            guard offered.contains(code) else { throw ConfigError("\(key).\(code): not in languages.available") }
            for name in texts.keys.sorted() where MessageCatalog.english.strings[name] == nil && !fieldKeys.contains(name) {
                throw ConfigError("\(key).\(code).\(name): no such message (frontdoor config messages lists them)")
            }
        }
    }

    /// The mapping as YAML lines for `frontdoor config check` (nothing when empty).
    public static func render(_ messages: [String: [String: String]]) -> [String] {
        guard !messages.isEmpty else { return [] }
        var lines = ["\(key):"]
        for code in messages.keys.sorted() {
            lines.append("  \(code):")
            for (name, text) in messages[code]!.sorted(by: { $0.key < $1.key }) {
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
                lines.append("    \(name): \"" + escaped + "\"")
            }
        }
        return lines
    }
}
