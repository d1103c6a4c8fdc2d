// Base64URLTests.swift: the one base64url, strict (JWS) and with padding allowed (our tokens and cookies).
// Moved here from AccountCoreTests/Tokens/SecretTokenTests.swift and BrowserIDTests/SignaturesTests.swift (issue 26).
import Encodings
import Testing

struct Base64URLTests {
    /// `length` bytes that differ from length to length (a tiny LCG: the test needs variety, not secrecy).
    private func bytes(_ length: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<length).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    @Test func base64URLRoundTripsEveryLengthWithoutPadding() {
        for length in 0...40 {
            let bytes = bytes(length, seed: 16)
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(text.count == (length * 4 + 2) / 3)
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
            #expect(Base64URL.decode(text, allowingPadding: true) == bytes, "length \(length)")
            #expect(Base64URL.decode(text[...]) == bytes, "a Substring, length \(length)")
        }
    }

    @Test func base64URLUsesDashAndUnderscoreWhereBase64HasPlusAndSlash() {
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("----") == [0xFB, 0xEF, 0xBE])
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_8=", allowingPadding: true) == [0xFB, 0xFF], "padding is accepted")
        #expect(Base64URL.decode("-w==", allowingPadding: true) == [0xFB])
    }

    @Test func base64URLRefusesPlainBase64AndJunk() {
        for allowingPadding in [false, true] {
            #expect(Base64URL.decode("+/8", allowingPadding: allowingPadding) == nil)
            #expect(Base64URL.decode("ab cd", allowingPadding: allowingPadding) == nil)
            #expect(Base64URL.decode("abc!", allowingPadding: allowingPadding) == nil)
            #expect(Base64URL.decode("A", allowingPadding: allowingPadding) == nil)
            #expect(Base64URL.decode("YWJj\u{00e9}", allowingPadding: allowingPadding) == nil)
        }
    }

    /// Padding may only end the text; Foundation's decoder on Linux reads "ab=c" as two bytes.
    @Test func base64URLRefusesPaddingInsideTheText() {
        #expect(Base64URL.decode("ab=c", allowingPadding: true) == nil)
        #expect(Base64URL.decode("YWJjab=c", allowingPadding: true) == nil)
        #expect(Base64URL.decode("-_8===", allowingPadding: true) == nil, "at most two")
        #expect(Base64URL.decode("A===", allowingPadding: true) == nil)
    }

    /// JWS (RFC 7515 §2): no padding at all, only the url-safe alphabet.
    @Test func base64URLIsStrict() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("-_8=") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("+/8") == nil)
    }
}
