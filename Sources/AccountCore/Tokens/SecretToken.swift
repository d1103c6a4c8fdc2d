// SecretToken.swift: 256-bit random tokens: the raw value goes to the person, only its SHA-256 digest is stored.
import Crypto
import Encodings
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
