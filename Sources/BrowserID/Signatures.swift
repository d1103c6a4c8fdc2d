// Signatures.swift: checking JWS signatures with BrowserID keys: RSASSA-PKCS1-v1_5 with SHA-256 (RS64/128/256) and
// DSA with SHA-1 (DS128) or SHA-256 (DS256). RSA keys of 2048 bits and more go through swift-crypto; smaller
// ones (RS64, RS128) and DSA through BigInt. Short RSA signatures (jwcrypto drops leading zero bytes) are left-padded.
import BigInt
import Crypto
import _CryptoExtras
import Foundation

enum Signatures {
    /// Whether `signature` over `message` is valid for `key` under `alg` (which must be the key's own algorithm).
    static func isValid(_ signature: [UInt8], message: [UInt8], key: PublicKey, alg: String) -> Bool {
        guard key.algorithm == alg else { return false }
        switch key {
        case let .rsa(n, e): return rsaValid(signature, message: message, n: n, e: e)
        case let .dsa(y, p, q, g): return dsaValid(signature, message: message, y: y, p: p, q: q, g: g, sha256: alg == "DS256")
        }
    }

    static func rsaValid(_ signature: [UInt8], message: [UInt8], n: BigUInt, e: BigUInt) -> Bool {
        let size = (n.bitWidth + 7) / 8
        guard !signature.isEmpty, signature.count <= size else { return false }
        let padded = [UInt8](repeating: 0, count: size - signature.count) + signature
        if size * 8 >= 2048, let key = try? _RSA.Signing.PublicKey(n: bytes(n), e: bytes(e)) {
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: padded), for: SHA256.hash(data: message),
                                        padding: .insecurePKCS1v1_5)
        }
        let s = BigUInt(Data(padded))
        guard s < n else { return false }
        let decoded = bytes(s.power(e, modulus: n))
        let em = [UInt8](repeating: 0, count: size - decoded.count) + decoded
        let digestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        let t = digestInfo + Array(SHA256.hash(data: message))
        guard size >= t.count + 11 else { return false }
        let expected = [0x00, 0x01] + [UInt8](repeating: 0xff, count: size - t.count - 3) + [0x00] + t
        return em == expected
    }

    static func dsaValid(_ signature: [UInt8], message: [UInt8], y: BigUInt, p: BigUInt, q: BigUInt, g: BigUInt, sha256: Bool) -> Bool {
        let qBytes = (q.bitWidth + 7) / 8
        guard signature.count == 2 * qBytes else { return false }
        let r = BigUInt(Data(signature[0..<qBytes])), s = BigUInt(Data(signature[qBytes...]))
        guard r > 0, r < q, s > 0, s < q, let w = s.inverse(q) else { return false }
        let digest: [UInt8] = sha256 ? Array(SHA256.hash(data: message)) : Array(Insecure.SHA1.hash(data: message))
        var z = BigUInt(Data(digest))
        let qBits = q.bitWidth
        if digest.count * 8 > qBits { z >>= (digest.count * 8 - qBits) }
        let u1 = (z * w) % q, u2 = (r * w) % q
        let v = ((g.power(u1, modulus: p) * y.power(u2, modulus: p)) % p) % q
        return v == r
    }

    /// Big-endian bytes without leading zeros.
    static func bytes(_ value: BigUInt) -> [UInt8] {
        let data = value.serialize()
        return data.isEmpty ? [0] : [UInt8](data)
    }
}
