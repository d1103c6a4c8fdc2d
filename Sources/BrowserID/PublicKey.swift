// PublicKey.swift: BrowserID public keys in their JSON form (not JWK): RSA {"algorithm":"RS","n","e"} in decimal,
// DSA {"algorithm":"DS","y","p","q","g"} in lowercase hex. The algorithm name (RS256, DS128…) follows from the size.
import BigInt
import Foundation

/// A user's or an identity provider's public key.
public enum PublicKey: Sendable, Hashable {
    case rsa(n: BigUInt, e: BigUInt)
    case dsa(y: BigUInt, p: BigUInt, q: BigUInt, g: BigUInt)

    /// Parses the JSON text of a key.
    public init(jsonText: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any] else {
            throw BrowserIDError(reason: "malformed public key")
        }
        try self.init(jsonObject: object)
    }

    /// Parses a key from its JSON object.
    public init(jsonObject: [String: Any]) throws {
        func number(_ name: String, radix: Int) throws -> BigUInt {
            guard let text = jsonObject[name] as? String, !text.isEmpty, text.utf8.count <= 2048,
                  let value = BigUInt(text, radix: radix), value > 1 else { throw BrowserIDError(reason: "malformed public key") }
            return value
        }
        switch jsonObject["algorithm"] as? String {
        case "RS": self = .rsa(n: try number("n", radix: 10), e: try number("e", radix: 10))
        case "DS": self = .dsa(y: try number("y", radix: 16), p: try number("p", radix: 16), q: try number("q", radix: 16),
                               g: try number("g", radix: 16))
        default: throw BrowserIDError(reason: "unsupported key algorithm")
        }
    }

    /// The key as its JSON object (every value a string).
    public var json: [String: String] {
        switch self {
        case let .rsa(n, e): ["algorithm": "RS", "n": String(n), "e": String(e)]
        case let .dsa(y, p, q, g): ["algorithm": "DS", "y": String(y, radix: 16), "p": String(p, radix: 16),
                                    "q": String(q, radix: 16), "g": String(g, radix: 16)]
        }
    }

    /// The JSON text, keys sorted.
    public var jsonText: String {
        let data = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    public var isRSA: Bool { if case .rsa = self { true } else { false } }

    /// Bits of the modulus (RSA) or of p (DSA).
    public var bitLength: Int {
        switch self {
        case let .rsa(n, _): n.bitWidth
        case let .dsa(_, p, _, _): p.bitWidth
        }
    }

    /// The JWS `alg` this key signs with, or nil for a size BrowserID does not know.
    /// RSA 2048 → RS256, 1024 (jwcrypto) or 1280 (PyBrowserID) → RS128, 512 → RS64 (±1 bit); DSA q 160 → DS128, q 256 → DS256.
    public var algorithm: String? {
        switch self {
        case .rsa:
            let bits = bitLength
            if (2047...2049).contains(bits) || bits > 2049 && bits <= 4096 && bits % 1024 == 0 { return "RS256" }
            if (1023...1025).contains(bits) || (1279...1281).contains(bits) { return "RS128" }
            if (511...513).contains(bits) { return "RS64" }
            return nil
        case let .dsa(_, p, q, _):
            let qBits = q.bitWidth, pBits = p.bitWidth
            if qBits == 160 && pBits == 1024 { return "DS128" }
            if qBits == 256 && pBits == 2048 { return "DS256" }
            return nil
        }
    }
}
