// PublicAddressTests.swift: the rule for which addresses a fetch an outsider triggers may reach (issue 22).
import IPAddresses
import Testing

struct PublicAddressTests {
    @Test(arguments: [
        "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254", "127.0.0.1", "127.255.0.9",
        "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1", "192.88.99.1", "192.168.1.1",
        "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1",
        "255.255.255.255",
        "::", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
        "64:ff9b::a00:1", "100::1", "2001::1", "2001:db8::1", "2002:7f00:1::1", "3fff::1", "fc00::1", "fd12:3456::1",
        "fe80::1", "fec0::1", "ff02::1", "ff0e::1",
    ])
    func notPublic(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(!address.isPublic)
    }

    @Test(arguments: ["1.1.1.1", "8.8.8.8", "93.184.216.34", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
                      "192.167.255.255", "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255", "::ffff:8.8.8.8",
                      "2001:4860:4860::8888", "2606:4700:4700::1111", "2a00:1450:4001::1"])
    func `public`(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.isPublic)
    }
}
