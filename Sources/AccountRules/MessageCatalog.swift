// MessageCatalog.swift: every sentence a person reads, by key, and how validation messages are worded.

/// All user-facing wording: page texts, field names, validation and flash messages, mail later.
///
/// Keys are snake_case so templates can use them directly (`{{t.sign_in_title}}`). A missing key
/// renders as the key itself, which `MessageCatalogTests` guards against.
public struct MessageCatalog: Sendable {
    /// Message text by key; `{name}` marks a value filled in at use.
    public var strings: [String: String]

    public init(strings: [String: String]) { self.strings = strings }

    /// The catalog with `overrides` replacing or adding messages (operator configuration).
    public func merging(_ overrides: [String: String]) -> MessageCatalog {
        MessageCatalog(strings: strings.merging(overrides) { _, new in new })
    }

    /// The text for `key` with `{name}` placeholders filled from `arguments`, in one left-to-right pass:
    /// a value that itself contains `{…}` is never filled again.
    public func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
        let template = strings[key] ?? key
        guard !arguments.isEmpty else { return template }
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            if let close = rest[open...].firstIndex(of: "}"), let value = arguments[String(rest[rest.index(after: open)..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// The name people see for form field `field`: the catalog's `field_<name>` when it has one (so every language,
    /// and an operator's override, names it), else `fallback` (an operator-declared field's configured label).
    public func displayName(of field: String, fallback: String) -> String {
        strings["field_" + field] ?? fallback
    }

    /// A validation message as a sentence: the field's display name, then the rule's message. A rule that names another
    /// field (a confirmation) names it as the form labels it (`labels`), else as this catalog does.
    public func fullMessage(for error: FieldError, displayName: String, labels: [String: String] = [:]) -> String {
        var arguments = error.arguments
        if let other = error.otherField {
            arguments["attribute"] = labels[other] ?? self.displayName(of: other, fallback: arguments["attribute"] ?? other)
        }
        let message = error.customMessage ?? text(error.key, arguments)
        return text("error_full_message", ["attribute": displayName, "message": message])
    }
}
