// Base64URL.swift: base64url (RFC 4648 §5), the project's one copy: session and CSRF tokens, mailed links, PKCE and
// OpenID nonces (AccountCore, WebFront), JWS and JWKs (BrowserID, OAuthClient).
//
// Options: `decode(_:allowingPadding:)`: off (the default), strict as JWS asks (RFC 7515 §2: no padding); on, up to
// two `=` may end the text (our own tokens and cookies, read leniently as they always were). Encoding never pads.
// A leaf module without Foundation: encoded and decoded byte by byte, since every request with a session cookie and
// every certificate (kilobytes) goes through it, and Foundation's round trip cost 30× more.

/// Base64url without padding.
///
/// ```swift
/// Base64URL.encode([0xFB, 0xFF])                      // "-_8"
/// Base64URL.decode("-_8")                             // [0xFB, 0xFF]
/// Base64URL.decode("-_8=")                            // nil
/// Base64URL.decode("-_8=", allowingPadding: true)     // [0xFB, 0xFF]
/// ```
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as unpadded base64url.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(Array(bytes))
    }

    /// The same for an array, without the generic walk (see `decode`): every page's CSRF token goes through here.
    public static func encode(_ input: [UInt8]) -> String {
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

    /// The bytes of base64url `text`; nil for any character outside the url-safe alphabet (`+`, `/`, spaces, non-ASCII),
    /// an impossible length, or padding, which `allowingPadding` admits only at the end and at most twice.
    public static func decode(_ text: String, allowingPadding: Bool = false) -> [UInt8]? {
        // Over the contiguous UTF-8 bytes, not a generic view: called from other modules, the generic form walked
        // `utf8` through protocol witnesses, which cost a gate check a sixth of its instructions.
        var text = text
        return text.withUTF8 { decode(bytes: $0, allowingPadding: allowingPadding) }
    }

    /// The same for a substring (or any other string type).
    public static func decode(_ text: some StringProtocol, allowingPadding: Bool = false) -> [UInt8]? {
        decode(String(text), allowingPadding: allowingPadding)
    }

    private static func decode(bytes: UnsafeBufferPointer<UInt8>, allowingPadding: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0, count = 0, padding = 0
        for byte in bytes {
            if byte == UInt8(ascii: "="), allowingPadding {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte) else { return nil }
            count += 1
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard padding <= 2, count % 4 != 1 else { return nil }
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
