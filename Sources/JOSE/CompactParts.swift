// CompactParts.swift: compact serialisations cut apart: a JWS at its dots, and BrowserID's backed assertion at its
// tildes. Byte-level: tokens are kilobytes of ASCII, and splitting by Character cost more than decoding them.

/// Cutting a compact serialisation into its parts.
public enum CompactParts {
    /// `text` cut at every `separator` byte, empty parts kept (`a..b` → a, "", b).
    public static func split(_ text: Substring, separator: UInt8) -> [Substring] {
        let utf8 = text.utf8
        // A native string's bytes are contiguous: offsets found there cut the substring in O(1) each (walking the
        // view's indices one by one cost ~50 instructions a byte).
        if let offsets = utf8.withContiguousStorageIfAvailable({ bytes in bytes.indices.filter { bytes[$0] == separator } }) {
            var parts: [Substring] = []
            parts.reserveCapacity(offsets.count + 1)
            var start = utf8.startIndex
            for offset in offsets {
                let end = utf8.index(utf8.startIndex, offsetBy: offset)
                parts.append(Substring(utf8[start..<end]))
                start = utf8.index(after: end)
            }
            parts.append(Substring(utf8[start...]))
            return parts
        }
        var parts: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == separator {
                parts.append(Substring(utf8[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        parts.append(Substring(utf8[start...]))
        return parts
    }
}
