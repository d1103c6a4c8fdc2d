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
}
