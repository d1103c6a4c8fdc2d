import Testing
@testable import WebFront

struct FormDataTests {
    @Test func decodesPlusAndPercentEscapes() {
        let form = FormData.parse("email=a%2Bb%40c.d&password=one+two&empty=&flag")
        #expect(form["email"] == "a+b@c.d")
        #expect(form["password"] == "one two")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
    }

    @Test func theFirstOfRepeatedNamesWins() {
        #expect(FormData.parse("a=1&a=2")["a"] == "1")
    }

    @Test func brokenEscapesAndInvalidUTF8NeverCrash() {
        let form = FormData.parse([UInt8]("a=%&b=%4&c=%zz&d=".utf8) + [0xFF, 0xFE])
        #expect(form["a"] == "%")
        #expect(form["b"] == "%4")
        #expect(form["c"] == "%zz")
        #expect(form["d"] == "\u{FFFD}\u{FFFD}")
    }

    @Test func readsAtMostTheMaximumNumberOfPairs() {
        let many = (0..<1000).map { "k\($0)=v" }.joined(separator: "&")
        #expect(FormData.parse(many).count == FormData.maximumPairs)
    }

    @Test func encodingKeepsOnlyUnreservedCharacters() {
        #expect(FormData.encode("/a b?c=d&é") == "%2Fa%20b%3Fc%3Dd%26%C3%A9")
        #expect(FormData.decodePath("/a+b%2B") == "/a+b+")
    }

    /// The parser cuts contiguous bytes by offset and takes values without escapes as they are: it must read every
    /// input exactly as the plain rule does (split at `&`, skip empty pairs, the first `=` ends the name), for bytes
    /// given contiguously and not.
    @Test func readsAnyInputAsThePlainRuleDoes() {
        func plain(_ bytes: [UInt8]) -> [String: String] {
            var result: [String: String] = [:]
            for pair in bytes.split(separator: UInt8(ascii: "&")).prefix(FormData.maximumPairs) {
                let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                let name = FormData.decode(Array(parts[0]).lazy.map { $0 })
                guard !name.isEmpty, result[name] == nil else { continue }
                result[name] = parts.count > 1 ? FormData.decode(Array(parts[1]).lazy.map { $0 }) : ""
            }
            return result
        }
        let alphabet: [UInt8] = Array("&=+%2B4aZ~.-_ ".utf8) + [0, 0xC3, 0xA9, 0xFF, 0xE2, 0x82]
        var seed: UInt64 = 0x5EED
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(seed >> 59) * 3 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(alphabet[Int(seed >> 33) % alphabet.count])
            }
            #expect(FormData.parse(bytes) == plain(bytes), "\(bytes)")
            #expect(FormData.parse(bytes.lazy.map { $0 }) == plain(bytes), "not contiguous: \(bytes)")
        }
    }
}
