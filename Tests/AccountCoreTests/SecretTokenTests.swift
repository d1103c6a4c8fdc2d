import Crypto
import Foundation
import Testing
@testable import AccountCore

struct SecretTokenTests {
    static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test func aTokenIs32RandomBytesShownAs43Base64URLCharacters() {
        let random = SeededRandomSource(seed: 11)
        let token = SecretToken(random: random)
        #expect(token.bytes.count == 32)
        #expect(token.encoded.count == 43)
        #expect(token.encoded.allSatisfy { Self.alphabet.contains($0) })
        #expect(SecretToken(random: random) != token)
    }

    @Test func theEncodedFormRoundTrips() throws {
        let random = SeededRandomSource(seed: 12)
        for _ in 0..<50 {
            let token = SecretToken(random: random)
            let parsed = try #require(SecretToken(encoded: token.encoded))
            #expect(parsed == token)
            #expect(parsed.digest == token.digest)
        }
    }

    @Test func theDigestIsSHA256OfTheRawBytes() {
        let token = SecretToken(random: SeededRandomSource(seed: 13))
        #expect(token.digest == Data(SHA256.hash(data: token.bytes)))
        #expect(token.digest.count == 32)
        #expect(token.digest != Data(token.bytes))
    }

    @Test func malformedTokensAreRefused() {
        let good = SecretToken(random: SeededRandomSource(seed: 14)).encoded
        let head = String(good.dropLast())
        let standardBase64 = Data(SecretToken(random: SeededRandomSource(seed: 15)).bytes).base64EncodedString()
        var malformed: [String] = ["", "short", head, good + "A", good + "=", good + "==", good + "=junk", good + "\n", " " + good]
        malformed += [head + "=", head + "+", head + "/", head + " ", head + "é", String(good.dropLast(2)) + "é"]
        malformed += [standardBase64, String(repeating: "A", count: 44)]
        for text in malformed {
            #expect(SecretToken(encoded: text) == nil, "\(text.debugDescription)")
        }
        #expect(SecretToken(encoded: good) != nil)
    }

    @Test func aTokenWithJunkInsideIsRefused() {
        let good = Array(SecretToken(random: SeededRandomSource(seed: 17)).encoded)
        for junk: Character in ["=", ".", "~", "+", "/"] {
            for position in stride(from: 0, to: good.count, by: 3) {
                var text = good
                text[position] = junk
                #expect(SecretToken(encoded: String(text)) == nil, "\(junk) at \(position)")
            }
        }
    }

    @Test func base64URLRoundTripsEveryLengthWithoutPadding() {
        let random = SeededRandomSource(seed: 16)
        for length in 0...40 {
            let bytes = random.bytes(length)
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(text.count == (length * 4 + 2) / 3)
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
        }
    }

    @Test func base64URLUsesDashAndUnderscoreWhereBase64HasPlusAndSlash() {
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("----") == [0xFB, 0xEF, 0xBE])
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_8=") == [0xFB, 0xFF], "padding is accepted")
    }

    @Test func base64URLRefusesPlainBase64AndJunk() {
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("ab cd") == nil)
        #expect(Base64URL.decode("abc!") == nil)
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("YWJj\u{00e9}") == nil)
    }

    /// Padding may only end the text; Foundation's decoder on Linux reads "ab=c" as two bytes.
    @Test func base64URLRefusesPaddingInsideTheText() {
        #expect(Base64URL.decode("ab=c") == nil)
        #expect(Base64URL.decode("YWJjab=c") == nil)
    }
}
