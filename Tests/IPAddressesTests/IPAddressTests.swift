// IPAddressTests.swift: addresses parsed as numbers, CIDR ranges, and configured lists (issue 22).
import AccountCore
@testable import IPAddresses
import Testing

struct IPAddressTests {
    /// A dotted address already canonical is returned without parsing: that must answer what parsing and printing do.
    @Test func theDottedFastPathAnswersAsParsingDoes() {
        var cases = ["0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.", ".1.2.3", "01.2.3.4", "1.2.3.04", "1..2.3",
                     "1.2.3.4 ", "127.0.0.1", "10.0.0.255", "1.2.3.4/8", "::ffff:1.2.3.4", "", "1000.1.1.1", "9.99.199.249"]
        var seed: UInt64 = 0x1F
        let numbers = ["0", "1", "9", "10", "99", "100", "199", "249", "250", "255", "256", "00", "01", "010", "999", "", "1a", "2555"]
        for _ in 0..<5000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let count = 3 + Int(seed >> 62)   // 3 to 6 parts
            var parts: [String] = []
            for _ in 0..<count {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                // Mostly plain numbers, so that many are addresses and many are one part away from one.
                parts.append(numbers[Int(seed >> 33) % (seed >> 63 == 0 ? 10 : numbers.count)])
            }
            cases.append(parts.joined(separator: "."))
        }
        var fast = 0
        for text in cases {
            #expect(IPAddress.canonical(text) == (IPAddress(text)?.description ?? text), "\(text)")
            if IPAddress.isCanonicalIPv4(text) {
                fast += 1
                #expect(IPAddress(text)?.description == text, "\(text) taken as canonical")
            }
        }
        #expect(fast > 100, "the fast path was taken \(fast) times")
    }

    @Test(arguments: [
        ("1.2.3.4", "1.2.3.4"), ("::ffff:1.2.3.4", "1.2.3.4"), ("::FFFF:0102:0304", "1.2.3.4"),
        ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"), ("::1", "::1"), ("fe80::1", "fe80::1"), ("::", "::"),
        ("64:ff9b::1.2.3.4", "64:ff9b::102:304"),
    ])
    func everySpellingOfAnAddressIsOneAddress(text: String, canonical: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == canonical)
        #expect(IPAddress(canonical) == address)
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.4.5", "01.2.3.4", "256.1.1.1", "1.2.3.4:80", "[::1]", "fe80::1%eth0", "::1/128",
                      "localhost", "1.2.3.4 ", "gggg::1"])
    func whatIsNoAddressLiteralIsRefused(text: String) {
        #expect(IPAddress(text) == nil)
        #expect(IPAddress.canonical(text) == text, "left as it was")
    }

    @Test func rangesHoldTheirAddressesAndNoOthers() throws {
        let private10 = try #require(AddressRange("10.0.0.0/8"))
        #expect(private10.contains(IPAddress("10.255.0.1")!) && private10.contains(IPAddress("::ffff:10.0.0.1")!))
        #expect(!private10.contains(IPAddress("11.0.0.0")!) && !private10.contains(IPAddress("::a00:1")!), "IPv4-compatible is IPv6")
        let net64 = try #require(AddressRange("2001:db8:1:2::/64"))
        #expect(net64.contains(IPAddress("2001:db8:1:2:ffff::9")!) && !net64.contains(IPAddress("2001:db8:1:3::1")!))
        let odd = try #require(AddressRange("172.16.0.0/12"))
        #expect(odd.contains(IPAddress("172.31.255.255")!) && !odd.contains(IPAddress("172.32.0.0")!))
        let one = try #require(AddressRange("::1"))
        #expect(one.prefixLength == 128 && one.contains(IPAddress("0:0::1")!) && !one.contains(IPAddress("::2")!))
        let everything = try #require(AddressRange("0.0.0.0/0"))
        #expect(everything.contains(IPAddress("203.0.113.1")!) && !everything.contains(IPAddress("2001:db8::1")!))
        let mapped = try #require(AddressRange("::ffff:192.168.0.0/112"))
        #expect(mapped.description == "192.168.0.0/16" && mapped.contains(IPAddress("192.168.7.7")!))
    }

    @Test(arguments: ["10.0.0.0/33", "::/129", "10.1.0.0/8", "2001:db8::1/32", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8",
                      "10.0.0.0/8/8", "10.0.0.0/08x", "::ffff:0.0.0.0/95", "example.com/8", "/8"])
    func malformedRangesAreRefused(text: String) {
        #expect(AddressRange(text) == nil)
    }

    @Test func perAddressLimitsCountAnIPv6ClientByItsNetwork() {
        #expect(IPAddress.group(of: "2001:DB8:1:2:3:4:5:6", ipv6Prefix: 64) == "2001:db8:1:2::/64")
        #expect(IPAddress.group(of: "2001:db8:1:2:3:4:5:6", ipv6Prefix: 48) == "2001:db8:1::/48")
        #expect(IPAddress.group(of: "2001:db8:1:2:3:4:5:6", ipv6Prefix: 128) == "2001:db8:1:2:3:4:5:6")
        #expect(IPAddress.group(of: "::ffff:203.0.113.9", ipv6Prefix: 64) == "203.0.113.9", "IPv4 counts alone")
        #expect(IPAddress.group(of: "local", ipv6Prefix: 64) == "local" && IPAddress.group(of: "", ipv6Prefix: 64) == "")
        #expect(ClientInfo(remoteAddress: "2001:db8::1").addressGroup == "2001:db8::/64")
    }

    @Test func aListParsesEveryEntryOrNamesTheFirstBadOne() throws {
        let list = try AddressList(parsing: " 127.0.0.1, ::1 ,, 10.0.0.0/8 ")
        #expect(list.ranges.map(\.description) == ["127.0.0.1", "::1", "10.0.0.0/8"])
        #expect(list.contains("::ffff:127.0.0.1") && list.contains("10.2.3.4") && list.contains("0::1"))
        #expect(!list.contains("127.0.0.2") && !list.contains("not an address") && !list.contains(""))
        #expect(throws: InvalidAddress(entry: "app.example.com")) { try AddressList(parsing: "10.0.0.1, app.example.com, nope") }
        #expect(try AddressList(parsing: "").ranges.isEmpty)
        #expect(AddressList(lenient: "10.0.0.1, nope").ranges.map(\.description) == ["10.0.0.1"])
    }
}
