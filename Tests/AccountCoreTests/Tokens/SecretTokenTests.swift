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
}
