// OneTimeCodes+TOTP.swift: RFC 6238 time-based codes (HMAC-SHA1, 30-second steps, 6 digits), the enrolment's secret
// and its otpauth:// URI, as authenticator apps read them.
//
// Options: none; these are the values every authenticator app assumes (SHA-1, 30 s, 6 digits), so the URI states them
// but nothing here lets them vary except `digits` for RFC 6238's own test vectors (8 digits).
import Crypto
import Encodings
import Foundation

/// RFC 6238's generator.
public enum TOTP {
    /// Seconds per step.
    public static let period: Int64 = 30
    /// Digits per code.
    public static let digits = 6
    /// Secret length in bytes (160 bits, RFC 4226's recommendation for HMAC-SHA1).
    public static let secretLength = 20

    /// The step `date` falls in: Unix time / 30, rounded down.
    public static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code of `step` for `secret` (RFC 4226's HOTP with the step as counter), `digits` long with leading zeros.
    public static func code(secret: [UInt8], step: Int64, digits: Int = digits) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary = UInt32(mac[offset] & 0x7f) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// `text` as a code: the digits once spaces are taken out, or nil when it is not `digits` digits.
    static func normalized(_ text: String) -> String? {
        let kept = text.filter { $0 != " " && $0 != "\t" && $0 != "-" }
        guard kept.count == digits, kept.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return kept
    }

    /// Compares two codes in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// A secret being enrolled: what the settings page shows (QR code, the secret as text) before the first code.
public struct Enrolment: Sendable, Equatable {
    public let secret: [UInt8]

    /// The secret in base32, as authenticator apps take it.
    public var secretText: String { Base32.encode(secret) }

    /// The secret in groups of four characters, easier to type: `ABCD EFGH …`.
    public var groupedSecret: String {
        var out = ""
        for (index, character) in secretText.enumerated() {
            if index > 0 && index % 4 == 0 { out.append(" ") }
            out.append(character)
        }
        return out
    }

    /// `otpauth://totp/<issuer>:<label>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`: issuer the site's name,
    /// label the account's primary address, both percent-encoded (everything but RFC 3986's unreserved characters).
    public func uri(issuer: String, label: String) -> String {
        let issuer = Self.percentEncoded(issuer)
        return "otpauth://totp/\(issuer):\(Self.percentEncoded(label))?secret=\(secretText)&issuer=\(issuer)"
            + "&algorithm=SHA1&digits=\(TOTP.digits)&period=\(TOTP.period)"
    }

    /// `text`'s UTF-8 with every byte outside A–Z a–z 0–9 `-._~` as %XX.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
