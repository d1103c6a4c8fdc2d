// PublicAddress.swift: which addresses count as public, that is reachable on the Internet and nobody's inside.
// Frontdoor fetches from a host an outsider names (another identity provider's support document for
// `/verify`) only at a public address, so the fetch can't reach the operator's own network or machine.
//
// The rule: IPv4 is public unless it lies in one of IANA's special-purpose ranges below (this network, private
// 10/8, 172.16/12 and 192.168/16, shared 100.64/10, loopback, link-local, the documentation and benchmarking nets,
// protocol assignments, multicast, reserved and broadcast). IPv6 is public only inside global unicast 2000::/3 and
// outside its special ranges (documentation, protocol assignments with Teredo, 6to4 and NAT64, which embed IPv4
// addresses, and the rest). Everything else is not: ::, ::1, IPv4-compatible ::a.b.c.d, ULA fc00::/7, link-local
// fe80::/10, multicast ff00::/8 … An IPv4-mapped address (::ffff:a.b.c.d) is its IPv4 address (IPAddress folds it).
// Options: none.

extension IPAddress {
    /// Whether the address is public by the rule above.
    public var isPublic: Bool {
        if isIPv4 { return !Self.specialIPv4.contains { $0.contains(self) } }
        return Self.globalUnicast.contains(self) && !Self.specialIPv6.contains { $0.contains(self) }
    }

    private static func ranges(_ texts: [String]) -> [AddressRange] {
        texts.map { text in
            guard let range = AddressRange(text) else { preconditionFailure("a special-purpose range that doesn't parse: \(text)") }
            return range
        }
    }

    private static let specialIPv4 = ranges([
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
    ])

    private static let globalUnicast = ranges(["2000::/3"])[0]

    private static let specialIPv6 = ranges([
        "2001::/23", "2001:db8::/32", "2002::/16", "2620:4f:8000::/48", "3fff::/20",
    ])
}
