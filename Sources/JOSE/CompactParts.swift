// CompactParts.swift: compact serialisations cut apart: a JWS at its dots, and BrowserID's backed assertion at its
// tildes. Byte-level: tokens are kilobytes of ASCII, and splitting by Character cost more than decoding them.

/// Cutting a compact serialisation into its parts.
public enum CompactParts {
    /// `text` cut at every `separator` byte, empty parts kept (`a..b` → a, "", b).
    public static func split(_ text: Substring, separator: UInt8) -> [Substring] {
        var parts: [Substring] = []
        var start = text.utf8.startIndex
        var index = start
        while index != text.utf8.endIndex {
            if text.utf8[index] == separator {
                parts.append(Substring(text.utf8[start..<index]))
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        parts.append(Substring(text.utf8[start...]))
        return parts
    }
}
