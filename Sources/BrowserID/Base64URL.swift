// Base64URL.swift: base64url without padding, as JWS uses it; decoding is strict (no padding, no other alphabet).
import Foundation

enum Base64URL {
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")) }),
              text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}

/// A BrowserID failure, worded as Persona's verifier words it (`reason`).
public struct BrowserIDError: Error, Equatable, CustomStringConvertible, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
