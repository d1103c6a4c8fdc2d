// IPAddress.swift: client addresses as numbers, not strings. Parsing is inet_pton's, so `::FFFF:1.2.3.4`,
// `::ffff:0102:0304` and `1.2.3.4` are the same address, and an IPv4-mapped IPv6 address is folded to its IPv4 form.
// `AddressRange` is one CIDR range ("10.0.0.0/8", "2001:db8::/32") or one address; `AddressList` is a configured,
// comma-separated list of them (`client.trusted_proxies`, `metrics.allowed_addresses`, `social.token_allowed_addresses`).
//
// Options: none. A range's address bits past its prefix must be zero ("10.1.0.0/8" is refused as a likely typo), and
// a range written in IPv4-mapped form ("::ffff:10.0.0.0/104") is the IPv4 range it maps.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One IPv4 (4 bytes) or IPv6 (16 bytes) address; IPv4-mapped IPv6 addresses are kept in their IPv4 form.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses a literal address (no port, no brackets, no zone); nil for anything else.
    public init?(_ text: String) {
        guard let bytes = Self.literalBytes(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// inet_pton's bytes of a literal, before IPv4-mapped addresses are folded: 4 for IPv4, 16 for IPv6.
    static func literalBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        return inet_pton(AF_INET6, text, &v6) == 1 ? withUnsafeBytes(of: &v6) { Array($0) } : nil
    }

    /// 4 or 16 bytes; 16 bytes of an IPv4-mapped address become its 4.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 4 || bytes.count == 16, "an IP address has 4 or 16 bytes")
        self.bytes = bytes.count == 16 && Self.isMapped(bytes) ? Array(bytes[12...]) : bytes
    }

    /// Whether 16 bytes are `::ffff:a.b.c.d`.
    static func isMapped(_ bytes: [UInt8]) -> Bool {
        bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The canonical text: dotted IPv4, or RFC 5952's lower-case, zero-compressed IPv6 (inet_ntop).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { raw in
            _ = inet_ntop(isIPv4 ? AF_INET : AF_INET6, raw.baseAddress, &text, socklen_t(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The text of `address` in canonical form when it is an address literal, else `address` as it was.
    public static func canonical(_ address: String) -> String {
        isCanonicalIPv4(address) ? address : IPAddress(address)?.description ?? address
    }

    /// Whether `text` is a dotted IPv4 address already in canonical form (four numbers up to 255, no leading zeros):
    /// then it is its own canonical text. Every request asks this of REMOTE_ADDR, and parsing and printing it cost
    /// ~5 k instructions.
    static func isCanonicalIPv4(_ text: String) -> Bool {
        var parts = 0, value = 0, digits = 0, leadingZero = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return false }
                parts += 1
                (value, digits, leadingZero) = (0, 0, false)
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard !leadingZero, digits < 3 else { return false }
                leadingZero = digits == 0 && byte == UInt8(ascii: "0")
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }

    /// What per-address limits count `address` by: an IPv4 address alone, an IPv6 address by its first `ipv6Prefix`
    /// bits ("2001:db8:1:2::/64"; 128: alone); text that is no address, as it is.
    public static func group(of address: String, ipv6Prefix: Int) -> String {
        guard let parsed = IPAddress(address) else { return address }
        guard !parsed.isIPv4, ipv6Prefix < 128 else { return parsed.description }
        return "\(parsed.masked(to: max(0, ipv6Prefix)))/\(max(0, ipv6Prefix))"
    }

    /// The first `length` bits, the rest zero.
    func masked(to length: Int) -> IPAddress {
        var bytes = bytes
        for index in bytes.indices {
            let kept = min(8, max(0, length - index * 8))
            bytes[index] &= kept == 0 ? 0 : UInt8(truncatingIfNeeded: 0xff << (8 - kept))
        }
        return IPAddress(bytes: bytes)
    }
}

/// A CIDR range: an address and a prefix length; a bare address is the range of just that address.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    /// Parses "address" or "address/prefix"; nil when either part is not valid or bits past the prefix are set.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard var bytes = IPAddress.literalBytes(parts[0]) else { return nil }   // unfolded: the prefix counts 128 bits
        var length = bytes.count * 8
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber), parts[1].count <= 3,
                  let given = Int(parts[1]), given <= length else { return nil }
            length = given
        }
        if bytes.count == 16, IPAddress.isMapped(bytes) {   // ::ffff:a.b.c.d/n is the IPv4 range a.b.c.d/(n-96)
            guard length >= 96 else { return nil }
            bytes = Array(bytes[12...])
            length -= 96
        }
        let address = IPAddress(bytes: bytes)
        guard address.masked(to: length) == address else { return nil }
        network = address
        prefixLength = length
    }

    /// Whether `address` lies in this range (an IPv4 address never lies in an IPv6 range, nor the reverse).
    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && address.masked(to: prefixLength) == network
    }

    public var description: String {
        prefixLength == network.bytes.count * 8 ? network.description : "\(network)/\(prefixLength)"
    }
}

/// A configured list of addresses and ranges, comma-separated ("127.0.0.1, ::1, 10.0.0.0/8").
public struct AddressList: Hashable, Sendable {
    public let ranges: [AddressRange]

    /// Parses `text`; throws naming the first entry that is neither an address nor a CIDR range.
    public init(parsing text: String) throws {
        var ranges: [AddressRange] = []
        for entry in text.split(separator: ",").map({ trimmed($0) }) where !entry.isEmpty {
            guard let range = AddressRange(entry) else { throw InvalidAddress(entry: entry) }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// The entries that parse, the others dropped (config validation has refused them already).
    public init(lenient text: String) {
        ranges = text.split(separator: ",").compactMap { AddressRange(trimmed($0)) }
    }

    /// Whether `address` (a literal, any form) lies in one of the ranges; text that is no address never does.
    public func contains(_ address: String) -> Bool {
        guard let parsed = IPAddress(address) else { return false }
        return ranges.contains { $0.contains(parsed) }
    }
}

/// `text` without the spaces and tabs around it.
private func trimmed(_ text: Substring) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
}

/// An entry of an address list that is neither an address nor a CIDR range.
public struct InvalidAddress: Error, Equatable {
    public let entry: String
    public init(entry: String) { self.entry = entry }
}
