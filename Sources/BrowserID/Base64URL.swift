// Base64URL.swift: base64url without padding, as JWS uses it; decoding is strict (no padding, no other alphabet).
import Foundation

enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encoded byte by byte (certificates and assertions are kilobytes; Foundation's round trip cost 30× more).
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let chunk = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            for shift in [18, 12, 6].prefix(rest + 1) { out.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` cut at every `separator` byte, empty parts kept (`a..b` → a, "", b). Byte-level: tokens are kilobytes of
    /// ASCII, and splitting by Character cost more than decoding them.
    static func parts(_ text: Substring, separator: UInt8) -> [Substring] {
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

    /// Strict: only the url-safe alphabet, no padding, no impossible length. Decoded byte by byte.
    static func decode(_ text: Substring) -> [UInt8]? {
        let count = text.utf8.count
        guard count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for byte in text.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}

/// A BrowserID failure, worded as Persona's verifier words it (`reason`).
public struct BrowserIDError: Error, Equatable, CustomStringConvertible, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
