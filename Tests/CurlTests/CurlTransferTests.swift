// CurlTransferTests.swift: the libcurl wrapper's own options, on loopback addresses nothing listens on (port 1).
// Bodies, caps and POSTs run against a server in OAuthClientTests/CurlHTTPClientTests.swift, the SMTP upload in
// Tests/e2e/test_mail_tls.py, the resolve pin and connect check in BrowserIDTests' fetcher tests.
import CCurl
import Curl
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The addresses `allowConnect` was asked about, as "address:port".
private final class Seen {
    var addresses: [String] = []

    func record(_ address: UnsafePointer<sockaddr>) {
        guard Int32(address.pointee.sa_family) == AF_INET else { addresses.append("not IPv4"); return }
        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var raw = inet.pointee.sin_addr
            inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            addresses.append(text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + ":\(UInt16(bigEndian: inet.pointee.sin_port))")
        }
    }
}

struct CurlTransferTests {
    @Test func aFailedConnectGivesCurlsCodeItsTextAndItsDetail() throws {
        let outcome = try #require(CurlTransfer(url: "http://127.0.0.1:1/", timeoutMilliseconds: 2000).perform())
        #expect(!outcome.succeeded && outcome.code == CURLE_COULDNT_CONNECT)
        #expect(outcome.message == String(cString: curl_easy_strerror(CURLE_COULDNT_CONNECT)))
        #expect(!outcome.detail.isEmpty)
        #expect(!outcome.connectRefused && !outcome.bodyTooLarge && outcome.body.isEmpty)
    }

    @Test func aRefusedAddressIsNeverConnectedAndSaysSo() throws {
        let seen = Seen()
        var transfer = CurlTransfer(url: "http://127.0.0.1:1/", timeoutMilliseconds: 2000)
        transfer.allowConnect = { seen.record($0); return false }
        let outcome = try #require(transfer.perform())
        #expect(outcome.connectRefused && !outcome.succeeded)
        #expect(seen.addresses == ["127.0.0.1:1"])
    }

    @Test func aResolvePinDecidesTheAddressOfAHostName() throws {
        let seen = Seen()
        var transfer = CurlTransfer(url: "http://pinned.invalid:1/", timeoutMilliseconds: 2000)
        transfer.resolve = ["pinned.invalid:1:127.0.0.1"]
        transfer.allowConnect = { seen.record($0); return false }
        let outcome = try #require(transfer.perform())
        #expect(outcome.connectRefused)
        #expect(seen.addresses == ["127.0.0.1:1"])
    }

    @Test func aProtocolOutsideTheListIsRefusedWithoutConnecting() throws {
        let seen = Seen()
        var transfer = CurlTransfer(url: "http://127.0.0.1:1/", timeoutMilliseconds: 2000)
        transfer.protocols = "https"
        transfer.allowConnect = { seen.record($0); return true }
        let outcome = try #require(transfer.perform())
        #expect(outcome.code == CURLE_UNSUPPORTED_PROTOCOL)
        #expect(seen.addresses.isEmpty && !outcome.connectRefused)
    }
}
