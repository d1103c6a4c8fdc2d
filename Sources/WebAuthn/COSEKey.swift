// COSEKey.swift: a credential public key as COSE (RFC 9052/9053) sends it, and the one check made with it: does a
// signature verify over authenticatorData ‖ SHA-256(clientDataJSON). Three algorithms, the ones browsers ask for by
// default and authenticators use:
//   ES256 (-7):   kty 2 (EC2), crv 1 (P-256), x and y of 32 bytes; the signature is ASN.1 DER (not raw r‖s).
//   EdDSA (-8):   kty 1 (OKP), crv 6 (Ed25519), x of 32 bytes; the signature is 64 raw bytes.
//   RS256 (-257): kty 3 (RSA), n of 2048 to 8192 bits, e; PKCS#1 v1.5 with SHA-256. The upper bound keeps one
//                 verification cheap (a 16384-bit key sent on purpose would cost every sign-in with it).
// The key must name its algorithm (label 3), and the algorithm must fit the key type and curve: a P-256 key labelled
// EdDSA is refused, not guessed at. Other labels (kid, key_ops, …) are ignored.
import Crypto
import _CryptoExtras

@_spi(Testing) public struct COSEKey: Sendable {
    public enum Algorithm: Int, Sendable {
        case es256 = -7
        case edDSA = -8
        case rs256 = -257
    }

    private enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    public let algorithm: Algorithm
    private let key: Key

    /// RSA moduli smaller or larger than these are refused.
    static let rsaBits = 2048...8192

    /// Reads a COSE key; `.malformed(.publicKey)` for bytes that are no key, `.unsupportedAlgorithm` for a key of
    /// another type or algorithm.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let map: CBOR
        do { map = try CBORDecoder.decode(bytes) } catch { throw .malformed(.publicKey) }
        try self.init(map)
    }

    /// A key already decoded (the authenticator data's, which is followed by more bytes).
    public init(_ map: CBOR) throws(WebAuthnError) {
        guard case .map = map, let kty = map[1]?.int, let alg = map[3]?.int else { throw .malformed(.publicKey) }
        guard let algorithm = Algorithm(rawValue: alg) else { throw .unsupportedAlgorithm }
        self.algorithm = algorithm
        switch (algorithm, kty) {
        case (.es256, 2):
            guard map[-1]?.int == 1 else { throw .unsupportedAlgorithm }
            guard case .bytes(let x)? = map[-2], case .bytes(let y)? = map[-3], x.count == 32, y.count == 32,
                  let key = try? P256.Signing.PublicKey(rawRepresentation: x + y) else { throw .malformed(.publicKey) }
            self.key = .p256(key)
        case (.edDSA, 1):
            guard map[-1]?.int == 6 else { throw .unsupportedAlgorithm }
            guard case .bytes(let x)? = map[-2], x.count == 32,
                  let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { throw .malformed(.publicKey) }
            self.key = .ed25519(key)
        case (.rs256, 3):
            guard case .bytes(let n)? = map[-1], case .bytes(let e)? = map[-2], !e.isEmpty, e.count <= 8 else {
                throw .malformed(.publicKey)
            }
            let modulus = Array(n.drop { $0 == 0 })
            let bits = modulus.isEmpty ? 0 : modulus.count * 8 - modulus[0].leadingZeroBitCount
            guard Self.rsaBits.contains(bits) else { throw .unsupportedAlgorithm }
            guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: e) else { throw .malformed(.publicKey) }
            self.key = .rsa(key)
        default:
            throw .unsupportedAlgorithm
        }
    }

    /// Whether `signature` verifies over `message` (the caller builds authenticatorData ‖ SHA-256(clientDataJSON)).
    /// `.malformed(.signature)` when it cannot be a signature of this algorithm at all, else `.badSignature`.
    public func verify(signature: [UInt8], over message: [UInt8]) throws(WebAuthnError) {
        let valid: Bool
        switch key {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else {
                throw .malformed(.signature)
            }
            valid = key.isValidSignature(parsed, for: message)
        case .ed25519(let key):
            guard signature.count == 64 else { throw .malformed(.signature) }
            valid = key.isValidSignature(signature, for: message)
        case .rsa(let key):
            valid = key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message,
                                         padding: .insecurePKCS1v1_5)
        }
        guard valid else { throw .badSignature }
    }
}
