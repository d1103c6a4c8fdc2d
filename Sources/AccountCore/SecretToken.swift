// SecretToken.swift: 256-bit random tokens: the raw value goes to the person, only its SHA-256 digest is stored.
import Crypto
import Foundation

/// A secret handed to one person (session cookie, later mail links) and kept by us only as a digest.
public struct SecretToken: Sendable, Equatable {
    /// Number of random bytes: 256 bits.
    public static let byteCount = 32

    /// The raw random bytes.
    public let bytes: [UInt8]

    /// A fresh token from `random`.
    public init(random: any RandomSource) { bytes = random.bytes(Self.byteCount) }

    /// The token a person sent back, parsed from its URL-safe text; nil when malformed.
    public init?(encoded: String) {
        guard encoded.utf8.count == 43, let bytes = Base64URL.decode(encoded), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The URL- and cookie-safe text form: unpadded base64url, 43 characters.
    public var encoded: String { Base64URL.encode(bytes) }

    /// SHA-256 of the raw bytes: the only form that is stored.
    public var digest: Data { Data(SHA256.hash(data: bytes)) }
}

/// Base64url without padding (RFC 4648 §5).
public enum Base64URL {
    /// `bytes` as unpadded base64url (encoded byte by byte: every new session and CSRF token goes through it).
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
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

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes of unpadded (or end-padded) base64url text; nil for any other character, inner padding or impossible length.
    /// Decoded byte by byte: it runs on every request that carries a session cookie.
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        var padding = 0
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast(); padding += 1 }
        guard padding <= 2, bytes.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            guard let value = sextet(byte) else { return nil }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
