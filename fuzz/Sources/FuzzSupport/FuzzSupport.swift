// FuzzSupport.swift: what every fuzz target shares: stopping on a broken property, cutting an input into parts,
// and base64url (the product's own is internal to BrowserID).
import Foundation

public enum Fuzz {
    /// Stops the run when a property does not hold: libFuzzer sees the crash and keeps the input as crash-<sha1>.
    public static func require(_ condition: Bool, _ target: StaticString, _ message: @autoclosure () -> String) {
        if !condition { fatalError("\(target) property broken: " + message()) }
    }

    /// `bytes` cut at each `separator` byte (empty parts kept), padded with empty parts to at least `count`.
    public static func parts(_ bytes: [UInt8], separator: UInt8, count: Int = 0) -> [[UInt8]] {
        var parts = bytes.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
        while parts.count < count { parts.append([]) }
        return parts
    }

    /// Text of possibly invalid UTF-8 (U+FFFD for bad bytes), as the product reads bytes.
    public static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Base64url without padding.
    public static func base64url<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Base64url (padding optional) decoded, or nil.
    public static func unbase64url(_ text: Substring) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
