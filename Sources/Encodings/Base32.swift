// Base32.swift: base32 (RFC 4648 §6), for one-time-code secrets: what authenticator apps read from an otpauth:// URI
// and what a person types when the QR code cannot be scanned.
//
// Options: none. Encoding never pads (authenticator apps and the otpauth:// format expect no `=`). Decoding is
// tolerant of what people type and copy: lower case, spaces, dashes and trailing `=` are accepted; any other
// character, or an impossible length, gives nil. Digits 0, 1 and 8 are not in the alphabet and are refused, not guessed.

/// Base32 with the RFC 4648 alphabet (A–Z, 2–7), unpadded on output.
///
/// ```swift
/// Base32.encode(Array("foobar".utf8))   // "MZXW6YTBOI"
/// Base32.decode("mzxw 6ytb oi")         // Array("foobar".utf8)
/// ```
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// `bytes` as unpadded base32, upper case.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int(buffer >> UInt32(bits) & 31)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of base32 `text`, read leniently (lower case, spaces, dashes, padding at the end); nil for any other
    /// character, `=` before the end, or a length no encoder makes (1, 3 or 6 characters left over, or leftover bits
    /// that are not zero).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        var count = 0
        var padded = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "\t") { continue }
            if byte == UInt8(ascii: "=") { padded = true; continue }
            if padded { return nil }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a")
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = byte - UInt8(ascii: "2") + 26
            default: return nil
            }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            count += 1
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover characters per 8: 0, 2, 4, 5 or 7 are possible; and the bits left over must be zero (one encoding per value).
        guard [0, 2, 4, 5, 7].contains(count % 8), buffer == 0 else { return nil }
        return out
    }
}
