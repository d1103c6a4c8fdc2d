// FormData.swift: application/x-www-form-urlencoded parsing (query strings and form bodies) and percent-encoding.
import Glibc

/// Decoded `name=value&…` pairs. The first value of a repeated name wins; at most `maximumPairs` are read.
public enum FormData {
    /// Pairs beyond this many are ignored (a form here has a handful of fields).
    public static let maximumPairs = 256

    /// Parses urlencoded text: `+` is a space, `%XX` a byte; invalid UTF-8 becomes U+FFFD, never a crash.
    public static func parse<Bytes: Collection>(_ bytes: Bytes) -> [String: String] where Bytes.Element == UInt8 {
        // Bodies arrive as contiguous bytes: cut there by offset (a /verify form is kilobytes; the generic split cost
        // ~25 instructions a byte).
        if let parsed = bytes.withContiguousStorageIfAvailable(parse(contiguous:)) { return parsed }
        return Array(bytes).withUnsafeBufferPointer(parse(contiguous:))
    }

    private static func parse(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        var count = 0, start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }   // empty pairs (`a=1&&b=2`) are skipped, not counted
            guard count < maximumPairs else { break }
            count += 1
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            let name = decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]))
            guard !name.isEmpty, result[name] == nil else { continue }
            result[name] = equals < end ? decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end])) : ""
        }
        return result
    }

    /// Parses a query string or form given as text.
    public static func parse(_ text: String) -> [String: String] { parse(Array(text.utf8)) }

    /// Percent-decodes one component, `+` meaning space.
    public static func decode<Bytes: Collection>(_ bytes: Bytes, plusIsSpace: Bool = true) -> String where Bytes.Element == UInt8 {
        // Most values hold neither: then the bytes are the text.
        let plain = bytes.withContiguousStorageIfAvailable { buffer -> String? in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return "" }
            guard memchr(base, Int32(UInt8(ascii: "%")), buffer.count) == nil,
                  !plusIsSpace || memchr(base, Int32(UInt8(ascii: "+")), buffer.count) == nil else { return nil }
            return String(decoding: buffer, as: UTF8.self)
        }
        if let plain = plain ?? nil { return plain }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if plusIsSpace, byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                      let high = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), high != bytes.endIndex,
                      let low = bytes.index(high, offsetBy: 1, limitedBy: bytes.endIndex), low != bytes.endIndex,
                      let h = hexValue(bytes[high]), let l = hexValue(bytes[low]) {
                out.append(h << 4 | l)
                index = low
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when urlencoded text would decode to a NUL somewhere (a raw zero byte or `%00`). Such a request is refused
    /// (Frontdoor's router, 400): PostgreSQL keeps text up to a NUL and SQLite all of it, so one value would mean two.
    public static func holdsNUL<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var previous: (UInt8, UInt8) = (1, 1)
        for byte in bytes {
            if byte == 0 || previous == (UInt8(ascii: "%"), UInt8(ascii: "0")) && byte == UInt8(ascii: "0") { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    /// Percent-decodes text without treating `+` as a space (paths).
    public static func decodePath(_ text: String) -> String { decode(Array(text.utf8), plusIsSpace: false) }

    /// Percent-encodes everything but RFC 3986's unreserved characters: safe in a query value.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
