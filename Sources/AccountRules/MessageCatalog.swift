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

    /// The text for `key` with `{name}` placeholders filled from `arguments`.
    public func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
        var text = strings[key] ?? key
        for (name, value) in arguments { text = text.replacingAll("{\(name)}", with: value) }
        return text
    }

    /// A validation message as a sentence: the field's display name, then the rule's message.
    public func fullMessage(for error: FieldError, displayName: String) -> String {
        let message = error.customMessage ?? text(error.key, error.arguments)
        return text("error_full_message", ["attribute": displayName, "message": message])
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = "", rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension Substring {
    fileprivate func range(of target: String) -> Range<Index>? {
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) { return start..<index(start, offsetBy: target.count) }
            start = index(after: start)
        }
        return nil
    }
}
