// CBOREncoder.swift: the tests' own CBOR writer (the product only reads CBOR), to build attestation objects, COSE
// keys and authenticator data the way an authenticator does: canonical heads, map pairs in the order given.
@testable @_spi(Testing) import WebAuthn

enum CBORValue {
    case int(Int)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map([(CBORValue, CBORValue)])
    case bool(Bool)
    case null

    var encoded: [UInt8] {
        switch self {
        case .int(let n): n >= 0 ? Self.head(0, UInt64(n)) : Self.head(1, UInt64(-1 - n))
        case .bytes(let b): Self.head(2, UInt64(b.count)) + b
        case .text(let t): Self.head(3, UInt64(t.utf8.count)) + Array(t.utf8)
        case .array(let items): Self.head(4, UInt64(items.count)) + items.flatMap(\.encoded)
        case .map(let pairs): Self.head(5, UInt64(pairs.count)) + pairs.flatMap { $0.0.encoded + $0.1.encoded }
        case .bool(let b): [b ? 0xF5 : 0xF4]
        case .null: [0xF6]
        }
    }

    /// A head in its shortest form.
    static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        let m = major << 5
        switch value {
        case 0..<24: return [m | UInt8(value)]
        case 24...0xFF: return [m | 24, UInt8(value)]
        case 0x100...0xFFFF: return [m | 25] + bigEndian(value, 2)
        case 0x1_0000...0xFFFF_FFFF: return [m | 26] + bigEndian(value, 4)
        default: return [m | 27] + bigEndian(value, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
