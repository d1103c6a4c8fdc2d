// CBORTests.swift: the decoder reads WebAuthn's subset and refuses everything outside it, one test per refusal
// (CBOR.swift's header lists them), with the hex written out so each case says what it is.
import Testing
@testable @_spi(Testing) import WebAuthn

struct CBORTests {
    func decode(_ bytes: [UInt8]) -> Result<CBOR, CBORError> { Result { () throws(CBORError) in try CBORDecoder.decode(bytes) } }
    func refusal(_ bytes: [UInt8]) -> CBORError? { if case .failure(let error) = decode(bytes) { error } else { nil } }

    @Test func readsEachMajorTypeOfTheSubset() throws {
        #expect(try decode([0x00]).get() == .unsigned(0))
        #expect(try decode([0x17]).get() == .unsigned(23))
        #expect(try decode([0x18, 0x18]).get() == .unsigned(24))
        #expect(try decode([0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).get() == .unsigned(.max))
        #expect(try decode([0x26]).get().int == -7)
        #expect(try decode([0x39, 0x01, 0x00]).get().int == -257)
        #expect(try decode([0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).get() == .negative(.max))
        #expect(try decode([0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).get().int == nil, "below Int.min")
        #expect(try decode([0x43, 1, 2, 3]).get() == .bytes([1, 2, 3]))
        #expect(try decode([0x40]).get() == .bytes([]))
        #expect(try decode([0x63, 0x66, 0x6D, 0x74]).get() == .text("fmt"))
        #expect(try decode([0x62, 0xC3, 0xA9]).get() == .text("é"))
        #expect(try decode([0x82, 0x01, 0x20]).get() == .array([.unsigned(1), .negative(0)]))
        let map = try decode([0xA2, 0x01, 0x02, 0x63, 0x66, 0x6D, 0x74, 0xF6]).get()
        #expect(map[1] == .unsigned(2) && map["fmt"] == .null && map[2] == nil)
        #expect(try decode([0xF4]).get() == .bool(false))
        #expect(try decode([0xF5]).get() == .bool(true))
        #expect(try decode([0xF7]).get() == .undefined)
        #expect(try decode([0xF9, 0x3C, 0x00]).get() == .float(bitPattern: (1.0).bitPattern))
        #expect(try decode([0xF9, 0xC4, 0x00]).get() == .float(bitPattern: (-4.0).bitPattern))
        #expect(try decode([0xF9, 0x00, 0x01]).get() == .float(bitPattern: (0x1p-24).bitPattern))
        #expect(try decode([0xFA, 0x47, 0xC3, 0x50, 0x00]).get() == .float(bitPattern: (100000.0).bitPattern))
        #expect(try decode([0xFB, 0x3F, 0xF1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A]).get() == .float(bitPattern: (1.1).bitPattern))
    }

    @Test func acceptsNonMinimalLengthsAndIntegers() throws {
        #expect(try decode([0x18, 0x01]).get() == .unsigned(1))
        #expect(try decode([0x1A, 0x00, 0x00, 0x00, 0x05]).get() == .unsigned(5))
        #expect(try decode([0x59, 0x00, 0x02, 0xAA, 0xBB]).get() == .bytes([0xAA, 0xBB]))
    }

    @Test func decodePrefixSaysWhereTheItemEndsAndLeavesTheRest() throws {
        let bytes: [UInt8] = [0xFF, 0xA1, 0x01, 0x43, 1, 2, 3, 0xA0, 0x99]
        let (item, end) = try CBORDecoder.decodePrefix(bytes, from: 1)
        #expect(item == .map([CBOR.Pair(key: .unsigned(1), value: .bytes([1, 2, 3]))]) && end == 7)
        #expect(try CBORDecoder.decodePrefix(bytes, from: 7).end == 8)
        #expect(throws: CBORError.truncated) { try CBORDecoder.decodePrefix(bytes, from: 9) }
        #expect(throws: CBORError.truncated) { try CBORDecoder.decodePrefix(bytes, from: 10) }
    }

    @Test func refusesIndefiniteLengths() {
        for head: UInt8 in [0x5F, 0x7F, 0x9F, 0xBF] { #expect(refusal([head, 0xFF]) == .indefiniteLength, "\(head)") }
        #expect(refusal([0xFF]) == .indefiniteLength, "a break alone")
        #expect(refusal([0x1F]) == .indefiniteLength, "an integer cannot be indefinite either")
    }

    @Test func refusesReservedAdditionalInformation() {
        for info: UInt8 in 28...30 {
            #expect(refusal([info]) == .reservedAdditionalInformation)
            #expect(refusal([0x40 | info]) == .reservedAdditionalInformation)
            #expect(refusal([0xE0 | info]) == .reservedAdditionalInformation)
        }
    }

    @Test func refusesTags() {
        #expect(refusal([0xC0, 0x60]) == .tag)                  // tag 0, a date string
        #expect(refusal([0xD8, 0x18, 0x41, 0x00]) == .tag)      // tag 24, embedded CBOR
        #expect(refusal([0x81, 0xC2, 0x41, 0x01]) == .tag, "inside an array too")
    }

    @Test func refusesNestingDeeperThanTheLimit() throws {
        let depth = CBORDecoder.maximumDepth
        let deepest = Array(repeating: UInt8(0x81), count: depth - 1) + [0x80]
        #expect(refusal(deepest) == nil, "\(depth) nested arrays")
        #expect(refusal(Array(repeating: 0x81, count: depth) + [0x80]) == .tooDeep)
        #expect(refusal([0xA1, 0x01] + Array(repeating: 0x81, count: depth) + [0x00]) == .tooDeep, "a map counts too")
        #expect(refusal(Array(repeating: 0x81, count: 100_000) + [0x00]) == .tooDeep, "no stack exhaustion")
    }

    @Test func refusesLengthsBeyondTheInput() {
        #expect(refusal([0x42, 0x01]) == .truncated)
        #expect(refusal([0x63, 0x61, 0x62]) == .truncated)
        #expect(refusal([0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .truncated)
        #expect(refusal([0x9A, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]) == .truncated, "an array count beyond the bytes left")
        #expect(refusal([0xA2, 0x01, 0x02, 0x03]) == .truncated, "a map needs two items a pair")
        #expect(refusal([0x82, 0x01]) == .truncated)
        #expect(refusal([0x19, 0x01]) == .truncated, "a head cut short")
        #expect(refusal([0xF8]) == .truncated)
        #expect(refusal([]) == .truncated)
    }

    @Test func refusesDuplicateMapKeysEvenWrittenDifferently() {
        #expect(refusal([0xA2, 0x01, 0x00, 0x01, 0x00]) == .duplicateKey)
        #expect(refusal([0xA2, 0x01, 0x00, 0x18, 0x01, 0x00]) == .duplicateKey, "1 and a non-minimal 1")
        #expect(refusal([0xA2, 0x61, 0x61, 0x00, 0x61, 0x61, 0x00]) == .duplicateKey)
        #expect(refusal([0xA2, 0x01, 0x00, 0x20, 0x00]) == nil, "1 and -1 differ")
        #expect(refusal([0xA2, 0x41, 0x61, 0x00, 0x61, 0x61, 0x00]) == nil, "bytes and text differ")
    }

    @Test func refusesTrailingBytesWhereOneItemIsExpected() {
        #expect(refusal([0x01, 0x02]) == .trailingBytes)
        #expect(refusal([0xA0, 0x00]) == .trailingBytes)
    }

    @Test func refusesTextThatIsNotUTF8() {
        #expect(refusal([0x62, 0xC3, 0x28]) == .invalidText)
        #expect(refusal([0x61, 0xFF]) == .invalidText)
        #expect(refusal([0x63, 0xED, 0xA0, 0x80]) == .invalidText, "a surrogate")
    }

    @Test func refusesOtherSimpleValues() {
        #expect(refusal([0xE0]) == .unsupportedSimpleValue)
        #expect(refusal([0xF3]) == .unsupportedSimpleValue)
        #expect(refusal([0xF8, 0x20]) == .unsupportedSimpleValue)
    }
}
