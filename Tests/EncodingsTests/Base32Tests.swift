// Base32Tests.swift: base32 for one-time-code secrets: RFC 4648's vectors, no padding out, lenient in.
import Encodings
import Testing

struct Base32Tests {
    /// RFC 4648 §10's test vectors, without their padding.
    let vectors: [(String, String)] = [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI"),
    ]

    @Test func encodesRFC4648VectorsWithoutPadding() {
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded, "\(plain)")
        }
    }

    @Test func decodesRFC4648VectorsWithAndWithoutPadding() {
        for (plain, encoded) in vectors {
            #expect(Base32.decode(encoded) == Array(plain.utf8), "\(encoded)")
            let padding = String(repeating: "=", count: (8 - encoded.count % 8) % 8)
            #expect(Base32.decode(encoded + padding) == Array(plain.utf8), "\(encoded)\(padding)")
        }
    }

    @Test func decodingToleratesLowerCaseSpacesAndDashes() {
        #expect(Base32.decode("mzxw 6ytb oi") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW-6YTB-OI") == Array("foobar".utf8))
        #expect(Base32.decode("  mZxW6yTbOi\t") == Array("foobar".utf8))
    }

    @Test func decodingRefusesCharactersOutsideTheAlphabetAndImpossibleLengths() {
        #expect(Base32.decode("MZXW0") == nil, "0 is not base32")
        #expect(Base32.decode("MZXW1") == nil, "1 is not base32")
        #expect(Base32.decode("MZXW8") == nil, "8 is not base32")
        #expect(Base32.decode("MZXW6é") == nil)
        #expect(Base32.decode("M") == nil, "one character is never a whole byte")
        #expect(Base32.decode("MZX") == nil, "three characters are never whole bytes")
        #expect(Base32.decode("MZ=XW") == nil, "padding only at the end")
        #expect(Base32.decode("MY") != nil && Base32.decode("MZ") == nil, "leftover bits must be zero")
    }

    @Test func roundTripsEveryLength() {
        for length in 0...41 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base32.encode(bytes)
            #expect(!text.contains("="))
            #expect(text.count == (length * 8 + 4) / 5)
            #expect(Base32.decode(text) == bytes, "length \(length)")
            #expect(Base32.decode(text.lowercased()) == bytes, "length \(length), lower case")
        }
    }
}
