// PKCE.swift: RFC 7636's proof key for the provider sign-in (FrontdoorClient+OpenID.swift): a verifier of 32 random
// bytes (43 base64url characters), its S256 challenge BASE64URL(SHA-256(verifier)), and base64url itself.
//
// Options: none. SHA-256 is swift-crypto's (on Apple platforms that is CryptoKit itself): a library that does the job,
// rather than a digest of our own; the tests hold the challenge to RFC 7636's appendix B.
import Crypto
import Foundation

/// A PKCE verifier and its S256 challenge.
struct PKCE: Sendable, Equatable {
    let verifier: String
    var challenge: String { Self.challenge(for: verifier) }

    /// A verifier made of 32 bytes from `random`.
    init(random: (Int) -> [UInt8]) { verifier = Self.base64URL(random(32)) }

    init(verifier: String) { self.verifier = verifier }

    /// BASE64URL(SHA-256(ASCII(verifier))), RFC 7636 §4.2.
    static func challenge(for verifier: String) -> String { base64URL(Array(SHA256.hash(data: Array(verifier.utf8)))) }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
