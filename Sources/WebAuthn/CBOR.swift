// CBOR.swift: a CBOR (RFC 8949) decoder limited to what WebAuthn sends: the attestation object, the COSE key and the
// authenticator extensions. Strict on purpose, since every byte comes from the browser unchecked:
// - major types 0–5 and 7 only (unsigned, negative, byte string, text string, array, map; false, true, null,
//   undefined, floats); a tag (type 6) is refused, WebAuthn uses none;
// - definite lengths only: an indefinite length (additional info 31) and the reserved values 28–30 are refused;
// - a length beyond the remaining input is refused before anything is allocated (an array or a map of n items needs
//   at least n bytes, a map of n pairs 2n);
// - nesting deeper than `maximumDepth` (8; WebAuthn needs 3) is refused, so hostile input cannot exhaust the stack;
// - a map with the same key twice is refused (two readers could take different ones);
// - text strings must be valid UTF-8; simple values other than false/true/null/undefined are refused;
// - `decode` wants exactly one item and refuses trailing bytes; `decodePrefix` returns the length it consumed, which is
//   how the authenticator data is split (the COSE key is followed by the extensions, with no length in between).
// Non-minimal encodings (a length of 5 written in two bytes, say) are accepted: WebAuthn asks authenticators for
// CTAP2 canonical CBOR, but nothing here re-encodes or compares encodings (signatures cover the bytes as sent and
// the COSE key is stored as given), so refusing them would only turn away a sloppy authenticator; a duplicate key
// written twice differently is still a duplicate (keys are compared decoded). Map key order is not checked, likewise.
//
// Why our own decoder and not Debian's libcbor: libcbor would be a system-library target, another runtime package in
// the .deb and in docs/install.md's runtime table, and a C parser fed attacker bytes. The subset is small (one file,
// fuzzed by fuzz/Sources/webauthn-fuzz and tested by Tests/WebAuthnTests/CBORTests.swift).

/// One decoded CBOR item.
@_spi(Testing) public indirect enum CBOR: Hashable, Sendable {
    case unsigned(UInt64)
    /// The integer -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order sent (keys are distinct).
    case map([Pair])
    case bool(Bool)
    case null
    case undefined
    /// A half, single or double precision float, as a Double's bit pattern (so equal keys hash alike).
    case float(bitPattern: UInt64)

    @_spi(Testing) public struct Pair: Hashable, Sendable {
        public let key: CBOR
        public let value: CBOR
        public init(key: CBOR, value: CBOR) { self.key = key; self.value = value }
    }

    /// The integer value of major type 0 or 1, if it fits an Int.
    public var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    /// The value for an integer key of a map (COSE labels).
    public subscript(label: Int) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key.int == label }?.value
    }

    /// The value for a text key of a map (the attestation object).
    public subscript(name: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(name) }?.value
    }
}

/// Why bytes are not the CBOR this decoder accepts.
@_spi(Testing) public enum CBORError: Error, Equatable, Sendable {
    /// The input ends inside an item, or a length points beyond it.
    case truncated
    /// An indefinite length (additional information 31).
    case indefiniteLength
    /// Additional information 28, 29 or 30.
    case reservedAdditionalInformation
    /// A tag (major type 6).
    case tag
    /// Nesting deeper than `CBORDecoder.maximumDepth`.
    case tooDeep
    /// A map with the same key twice.
    case duplicateKey
    /// A text string that is not valid UTF-8.
    case invalidText
    /// A simple value other than false, true, null and undefined.
    case unsupportedSimpleValue
    /// Bytes left after the one item expected.
    case trailingBytes
}

@_spi(Testing) public enum CBORDecoder {
    /// Arrays and maps nested deeper than this are refused (the attestation object's x5c is at depth 3).
    public static let maximumDepth = 8

    /// Exactly one item filling `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        let (item, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw .trailingBytes }
        return item
    }

    /// One item starting at `start`, and the index just after it (bytes after it are left alone).
    public static func decodePrefix(_ bytes: [UInt8], from start: Int) throws(CBORError) -> (CBOR, end: Int) {
        guard start >= 0, start <= bytes.count else { throw .truncated }
        var reader = Reader(bytes: bytes, position: start)
        let item = try reader.item(depth: 0)
        return (item, reader.position)
    }

    private struct Reader {
        let bytes: [UInt8]
        var position: Int

        var remaining: Int { bytes.count - position }

        mutating func byte() throws(CBORError) -> UInt8 {
            guard position < bytes.count else { throw .truncated }
            defer { position += 1 }
            return bytes[position]
        }

        /// The argument of a head whose additional information is `info`: the value itself below 24, else 1, 2, 4 or
        /// 8 bytes big-endian.
        mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                let width = 1 << Int(info - 24)
                guard remaining >= width else { throw .truncated }
                var value: UInt64 = 0
                for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
                return value
            case 31: throw .indefiniteLength
            default: throw .reservedAdditionalInformation
            }
        }

        /// A count of `unit`-byte minimum items that must fit in what is left (checked before allocating anything).
        func count(_ value: UInt64, unit: UInt64) throws(CBORError) -> Int {
            guard value <= UInt64(remaining) / unit else { throw .truncated }
            return Int(value)
        }

        mutating func take(_ length: Int) -> [UInt8] {
            defer { position += length }
            return Array(bytes[position..<position + length])
        }

        mutating func item(depth: Int) throws(CBORError) -> CBOR {
            let head = try byte()
            let major = head >> 5, info = head & 0x1F
            if major == 6 { throw .tag }
            if major == 7 { return try simple(info) }
            let value = try argument(info)
            switch major {
            case 0: return .unsigned(value)
            case 1: return .negative(value)
            case 2: return .bytes(take(try count(value, unit: 1)))
            case 3:
                let raw = take(try count(value, unit: 1))
                guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidText }
                return .text(text)
            case 4:
                guard depth < CBORDecoder.maximumDepth else { throw .tooDeep }
                let n = try count(value, unit: 1)
                var items: [CBOR] = []
                items.reserveCapacity(n)
                for _ in 0..<n { items.append(try item(depth: depth + 1)) }
                return .array(items)
            default:   // 5, a map
                guard depth < CBORDecoder.maximumDepth else { throw .tooDeep }
                let n = try count(value, unit: 2)
                var pairs: [CBOR.Pair] = []
                pairs.reserveCapacity(n)
                var keys = Set<CBOR>()
                for _ in 0..<n {
                    let key = try item(depth: depth + 1)
                    guard keys.insert(key).inserted else { throw .duplicateKey }
                    pairs.append(CBOR.Pair(key: key, value: try item(depth: depth + 1)))
                }
                return .map(pairs)
            }
        }

        mutating func simple(_ info: UInt8) throws(CBORError) -> CBOR {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 25: return .float(bitPattern: Self.double(half: UInt16(try argument(info))).bitPattern)
            case 26: return .float(bitPattern: Double(Float(bitPattern: UInt32(try argument(info)))).bitPattern)
            case 27: return .float(bitPattern: try argument(info))
            case 31: throw .indefiniteLength   // a "break" outside an indefinite item
            case 28...30: throw .reservedAdditionalInformation
            default:
                if info == 24 { _ = try byte() }   // a one-byte simple value: read, then refused like the others
                throw .unsupportedSimpleValue
            }
        }

        /// An IEEE 754 half-precision float widened (RFC 8949 appendix D).
        static func double(half: UInt16) -> Double {
            let exponent = Int(half >> 10) & 0x1F, mantissa = Double(half & 0x3FF)
            let magnitude: Double = switch exponent {
            case 0: mantissa * 0x1p-24
            case 31: mantissa == 0 ? .infinity : .nan
            default: (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
            }
            return half & 0x8000 != 0 ? -magnitude : magnitude
        }
    }
}
