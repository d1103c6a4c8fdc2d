// AppConfiguration+Profile.swift: config `profile.fields`, the operator's declared profile fields: read from the YAML
// list, checked, printed back by `frontdoor config check`, and turned into AccountRules' `ProfileField`.
//
// Each item is a mapping (ProfileField+Declaration.swift says what each option does and its default):
//   - name: username            required; [a-z][a-z0-9_]*, at most 40, not a built-in field name
//     label: Username
//     required: true
//     min_length: 4
//     max_length: 20            at most 10000
//     pattern: "[A-Za-z0-9_]+"  Swift Regex the whole value must match
//     type: text                text | email | tel | url | number
//     autocomplete: username    the input's autocomplete token; default off
//     unique: true
//     sign_up: true
//     message: "…"              replaces every rule's message
//     messages: { too_short: "…", invalid: "…" }   by rule key: blank, too_short, too_long, invalid, invalid_email, not_a_number
// No environment override: the list comes from the file only.
import AccountRules
import Foundation
import Yams

extension AppConfiguration {
    /// One item of `profile.fields`, as the operator wrote it (defaults filled in).
    public struct ProfileFieldConfig: Sendable, Equatable {
        public var name: String
        /// `label`; default: the name.
        public var label: String
        public var required = false
        public var minLength = 0
        public var maxLength = ProfileField.defaultMaxLength
        /// `pattern`; empty: none.
        public var pattern = ""
        /// `type`: text, email, tel, url or number.
        public var type = "text"
        public var autocomplete = "off"
        public var unique = false
        /// `sign_up`: also on the sign-up form.
        public var signUp = true
        /// `message`; empty: the catalog's wording.
        public var message = ""
        /// `messages`, by rule key.
        public var messages: [String: String] = [:]

        public init(name: String, label: String? = nil) {
            self.name = name
            self.label = label ?? name
        }

        /// The field with its rules, as the forms and AccountCore use it.
        public var profileField: ProfileField {
            ProfileField.declared(name: name, label: label, required: required, minLength: minLength, maxLength: maxLength,
                                  pattern: pattern, inputType: type, autocomplete: autocomplete, unique: unique, onSignUp: signUp,
                                  message: message, messages: messages)
        }
    }

    /// `profile.fields` as `ProfileField`s, in the order declared.
    public var declaredProfileFields: [ProfileField] { profileFields.map(\.profileField) }
}

/// Reading and printing `profile.fields`.
enum ProfileFieldsConfig {
    static let key = "profile.fields"
    static let options = ["name", "label", "required", "min_length", "max_length", "pattern", "type", "autocomplete",
                          "unique", "sign_up", "message", "messages"]
    static let maximumCount = 50

    /// The list under `profile.fields`; throws `ConfigError` naming the field and the option.
    static func parse(_ node: Node) throws -> [AppConfiguration.ProfileFieldConfig] {
        try ConfigList.parse(node, key: key, noun: "fields", first: "name", maximum: maximumCount, name: \.name, item: parseField)
    }

    private static func parseField(_ node: Node, position: Int) throws -> AppConfiguration.ProfileFieldConfig {
        let options = try ConfigList.options(node, key: key, position: position, known: Self.options, example: "name: username")
        guard let name = options["name"]?.scalar?.string, !name.isEmpty else { throw ConfigError("\(key)[\(position)].name: missing") }
        guard ProfileField.isValidName(name) else {
            throw ConfigError("\(key)[\(position)].name: must be a lower-case letter then letters, digits or _ (at most 40), "
                              + "and not one of \(ProfileField.reservedNames.sorted().joined(separator: ", ")) (got \"\(name)\")")
        }
        var field = AppConfiguration.ProfileFieldConfig(name: name)
        func fail(_ option: String, _ problem: String, _ value: String) -> ConfigError {
            ConfigError("\(key).\(name).\(option): \(problem) (got \"\(value)\")")
        }
        func scalar(_ option: String) throws -> String? {
            guard let value = options[option] else { return nil }
            guard let scalar = value.scalar else { throw ConfigError("\(key).\(name).\(option): expected a single value") }
            guard !scalar.string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail(option, "must be one line", scalar.string)
            }
            return scalar.string
        }
        func flag(_ option: String) throws -> Bool? {
            guard let value = try scalar(option) else { return nil }
            switch value.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw fail(option, "must be true or false", value)
            }
        }
        func count(_ option: String) throws -> Int? {
            guard let value = try scalar(option) else { return nil }
            guard let n = Int(value), (0...10_000).contains(n) else { throw fail(option, "must be a whole number up to 10000", value) }
            return n
        }
        if let label = try scalar("label") {
            guard label.count <= 100 else { throw fail("label", "must be at most 100 characters", label) }
            let trimmed = label.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { field.label = trimmed }
        }
        field.required = try flag("required") ?? field.required
        field.unique = try flag("unique") ?? field.unique
        field.signUp = try flag("sign_up") ?? field.signUp
        field.minLength = try count("min_length") ?? field.minLength
        field.maxLength = try count("max_length") ?? field.maxLength
        guard field.maxLength >= 1 else { throw fail("max_length", "must be at least 1", String(field.maxLength)) }
        guard field.minLength <= field.maxLength else {
            throw fail("min_length", "must not be more than max_length (\(field.maxLength))", String(field.minLength))
        }
        if let pattern = try scalar("pattern") {
            guard pattern.isEmpty || (try? Regex(pattern)) != nil else { throw fail("pattern", "is not a valid regular expression", pattern) }
            field.pattern = pattern
        }
        if let type = try scalar("type") {
            guard ProfileField.inputTypes.contains(type) else {
                throw fail("type", "must be one of \(ProfileField.inputTypes.joined(separator: ", "))", type)
            }
            field.type = type
        }
        if let autocomplete = try scalar("autocomplete") {
            guard !autocomplete.isEmpty, autocomplete.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == " ") }) else {
                throw fail("autocomplete", "must be an autocomplete token such as username, tel or off", autocomplete)
            }
            field.autocomplete = autocomplete
        }
        field.message = try scalar("message") ?? ""
        if let messages = options["messages"] {
            field.messages = try parseMessages(messages, field: name)
        }
        return field
    }

    private static func parseMessages(_ node: Node, field: String) throws -> [String: String] {
        if node.null != nil { return [:] }
        guard let mapping = node.mapping else { throw ConfigError("\(key).\(field).messages: expected a mapping of rule key to message") }
        var messages: [String: String] = [:]
        for (ruleNode, textNode) in mapping {
            let rule = ruleNode.string ?? ""
            guard ProfileField.messageKeys.contains(rule) else {
                throw ConfigError("\(key).\(field).messages.\(rule): unknown rule (known: \(ProfileField.messageKeys.joined(separator: ", ")))")
            }
            guard let text = textNode.scalar?.string, !text.isEmpty,
                  !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw ConfigError("\(key).\(field).messages.\(rule): must be one line of text")
            }
            messages[rule] = text
        }
        return messages
    }

    /// The `profile:` section of `config check`'s output, every option written out (reads back to the same fields).
    static func render(_ fields: [AppConfiguration.ProfileFieldConfig]) -> [String] {
        guard !fields.isEmpty else { return ["profile:", "  fields: []"] }
        var lines = ["profile:", "  fields:"]
        for field in fields {
            lines += [
                "    - name: \(quoted(field.name))",
                "      label: \(quoted(field.label))",
                "      required: \(field.required)",
                "      min_length: \(field.minLength)",
                "      max_length: \(field.maxLength)",
                "      pattern: \(quoted(field.pattern))",
                "      type: \(quoted(field.type))",
                "      autocomplete: \(quoted(field.autocomplete))",
                "      unique: \(field.unique)",
                "      sign_up: \(field.signUp)",
                "      message: \(quoted(field.message))",
            ]
            if field.messages.isEmpty {
                lines.append("      messages: {}")
            } else {
                lines.append("      messages:")
                lines += field.messages.sorted { $0.key < $1.key }.map { "        \($0.key): \(quoted($0.value))" }
            }
        }
        return lines
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
