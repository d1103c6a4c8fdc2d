// Signatures.swift: checking JWS signatures with BrowserID keys, always through a maintained implementation.
// RS256 (RSA of 2048 bits and more, PKCS#1 v1.5 with SHA-256) goes through JOSE (swift-crypto), as every RS256 check does. The legacy algorithms,
// RS128 (RSA of 1024 or 1280 bits), DS128 (DSA with SHA-1) and DS256 (DSA with SHA-256), go through OpenSSL's libcrypto
// and only count where the verifier's policy accepts them (`browserid.legacy_algorithms`). RS64 (512-bit RSA,
// factorable in hours) is never checked: its signatures are always invalid. Short RSA signatures (jwcrypto drops
// leading zero bytes) are left-padded to the modulus size. A key checked more than once (a remembered certificate's)
// is a PreparedKey: its RS256 key object is built once, which costs about as much as a check.
import BigInt
import COpenSSL
import Foundation
import JOSE

/// A public key ready for checking: RSA keys of 2048 bits and more as swift-crypto's key object, built once.
struct PreparedKey: Sendable {
    let key: PublicKey
    let rsa: JSONWebKey?

    init(_ key: PublicKey) {
        self.key = key
        if case let .rsa(n, e) = key, n.bitWidth >= 2048 {
            rsa = try? JSONWebKey(modulus: Signatures.bytes(n), exponent: Signatures.bytes(e))
        } else {
            rsa = nil
        }
    }
}

enum Signatures {
    /// The algorithms an operator may turn on for an old identity provider; everything else but RS256 is refused.
    static let legacyAlgorithms: Set<String> = ["RS128", "DS128", "DS256"]

    /// Whether `signature` over `message` is valid for `key` under `alg` (which must be the key's own algorithm).
    static func isValid(_ signature: [UInt8], message: [UInt8], key: PublicKey, alg: String) -> Bool {
        isValid(signature, message: message, key: key, rsa: nil, alg: alg)
    }

    /// The same with a prepared key.
    static func isValid(_ signature: [UInt8], message: [UInt8], key prepared: PreparedKey, alg: String) -> Bool {
        isValid(signature, message: message, key: prepared.key, rsa: prepared.rsa, alg: alg)
    }

    private static func isValid(_ signature: [UInt8], message: [UInt8], key: PublicKey, rsa: JSONWebKey?, alg: String) -> Bool {
        guard key.algorithm == alg else { return false }
        switch (key, alg) {
        case let (.rsa(n, e), "RS256"), let (.rsa(n, e), "RS128"):
            return rsaValid(signature, message: message, n: n, e: e, prepared: rsa)
        case let (.dsa(y, p, q, g), "DS128"), let (.dsa(y, p, q, g), "DS256"):
            return dsaValid(signature, message: message, y: y, p: p, q: q, g: g, sha256: alg == "DS256")
        default:
            return false   // RS64, and anything else
        }
    }

    static func rsaValid(_ signature: [UInt8], message: [UInt8], n: BigUInt, e: BigUInt, prepared: JSONWebKey? = nil) -> Bool {
        let size = (n.bitWidth + 7) / 8
        guard !signature.isEmpty, signature.count <= size else { return false }
        let padded = signature.count == size ? signature : [UInt8](repeating: 0, count: size - signature.count) + signature
        if n.bitWidth >= 2048 {
            guard let key = prepared ?? (try? JSONWebKey(modulus: bytes(n), exponent: bytes(e))) else { return false }
            return key.isValidSignature(padded, for: message)
        }
        let modulus = bytes(n), exponent = bytes(e)
        return fd_rsa_verify(modulus, modulus.count, exponent, exponent.count, message, message.count, padded, padded.count) == 1
    }

    static func dsaValid(_ signature: [UInt8], message: [UInt8], y: BigUInt, p: BigUInt, q: BigUInt, g: BigUInt, sha256: Bool) -> Bool {
        let half = (q.bitWidth + 7) / 8
        guard signature.count == 2 * half else { return false }
        let (pb, qb, gb, yb) = (bytes(p), bytes(q), bytes(g), bytes(y))
        let r = Array(signature[..<half]), s = Array(signature[half...])
        return fd_dsa_verify(pb, pb.count, qb, qb.count, gb, gb.count, yb, yb.count, sha256 ? 1 : 0,
                             message, message.count, r, s, half) == 1
    }

    /// Big-endian bytes without leading zeros.
    static func bytes(_ value: BigUInt) -> [UInt8] {
        let data = value.serialize()
        return data.isEmpty ? [0] : [UInt8](data)
    }
}
