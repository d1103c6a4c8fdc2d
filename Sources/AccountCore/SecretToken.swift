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
    /// `bytes` as unpadded base64url.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded (or end-padded) base64url text; nil for any other character, inner padding or impossible length.
    public static func decode(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard text.utf8.count - body.utf8.count <= 2, body.utf8.count % 4 != 1,
              body.utf8.allSatisfy({ byte in
                  (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
              }) else { return nil }
        var base64 = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
