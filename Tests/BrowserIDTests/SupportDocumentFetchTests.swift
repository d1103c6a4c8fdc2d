// SupportDocumentFetchTests.swift: which issuers /verify may fetch from (FetchRules, over a scripted resolver), and
// the fetcher against loopback listeners: pinned to the checked address, one reason for every failure, failures
// remembered. Every connection made here goes to a loopback address.
import Foundation
import IPAddresses
import Locking
import Testing
@testable import BrowserID

/// A resolver that answers from a script: each lookup of a name takes its next answer (the last one repeats).
final class ScriptedResolver: HostResolver {
    private let answers: [String: [[String]]]
    private let lookups = Locked<[String]>([])
    init(_ answers: [String: [[String]]]) { self.answers = answers }

    func addresses(of host: String) throws -> [IPAddress] {
        let count = lookups.withLock { $0.append(host); return $0.filter { $0 == host }.count }
        guard let script = answers[host], !script.isEmpty else { throw ResolutionFailure(host: host, detail: "no such name") }
        return script[min(count, script.count) - 1].compactMap(IPAddress.init)
    }

    var names: [String] { lookups.withLock { $0 } }
}

private let generic = "the support document could not be fetched"

struct FetchRulesTests {
    let resolver = ScriptedResolver([
        "localhost": [["127.0.0.1", "::1"]], "idp.example": [["93.184.216.34", "2606:2800:220:1::1"]],
        "mixed.example": [["93.184.216.34", "10.0.0.7"]], "private.example": [["192.168.1.10"]], "idp.internal": [["10.0.0.5"]],
    ])

    func rules(allowed: Set<String> = [], http: [String: String] = [:]) -> FetchRules {
        FetchRules(allowedHosts: allowed, httpHosts: http, resolver: resolver)
    }

    @Test(arguments: ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "10.1.2.3", "169.254.169.254", "[fe80::1]",
                      "[fd00::1]", "0.0.0.0", "localhost", "private.example", "mixed.example", "100.64.0.1", "[::]", "224.0.0.1"])
    func nonPublicAddressesAreRefused(issuer: String) {
        #expect(throws: FetchRefusal.self) { try rules().target(for: issuer) }
    }

    @Test func aPublicNameIsPinnedToTheAddressesChecked() throws {
        let target = try rules().target(for: "IDP.example")
        #expect(target.url == "https://idp.example:443/.well-known/browserid")
        #expect(target.pin == "idp.example:443:93.184.216.34,[2606:2800:220:1::1]")
        #expect(resolver.names == ["idp.example"], "looked up once")
    }

    @Test func anotherPortIsOnlyForAllowedHosts() throws {
        #expect(throws: FetchRefusal(detail: "port 8443 is fetched from only for hosts in browserid.fetch_allowed_hosts")) {
            try rules().target(for: "idp.example:8443")
        }
        #expect(resolver.names.isEmpty, "refused before any lookup")
        let target = try rules(allowed: ["idp.internal:8443"]).target(for: "idp.internal:8443")
        #expect(target.pin == "idp.internal:8443:10.0.0.5" && target.scheme == "https")
        #expect(throws: FetchRefusal.self) { try rules(allowed: ["idp.internal:8443"]).target(for: "idp.internal") }
    }

    @Test func testHostsOverHTTPNeedTheAllowList() throws {
        let http = ["idp.test": "127.0.0.1:5678", "six.test": "[::1]:5679"]
        #expect(throws: FetchRefusal.self) { try rules(http: http).target(for: "idp.test") }
        let target = try rules(allowed: ["idp.test", "six.test"], http: http).target(for: "idp.test")
        #expect(target.url == "http://idp.test:5678/.well-known/browserid" && target.pin == "idp.test:5678:127.0.0.1")
        #expect(try rules(allowed: ["six.test"], http: http).target(for: "six.test").pin == "six.test:5679:[::1]")
    }

    @Test(arguments: ["", "a/b", "a:b:c", "[::1", "[1.2.3.4]", "host:0", "host:99999", "host:", "-host", "ho st", "h@st", "::1"])
    func malformedIssuersAreRefused(issuer: String) {
        #expect(throws: FetchRefusal(detail: "malformed issuer")) { try rules().target(for: issuer) }
        #expect(!HTTPSupportDocumentFetcher.isIssuer(issuer))
    }

    @Test func onlyAllowedHostsWhenTheOperatorSaysSo() throws {
        let only = FetchRules(allowedHosts: ["idp.internal:8443"], onlyAllowed: true, httpHosts: [:], resolver: resolver)
        #expect(throws: FetchRefusal(detail: "idp.example is not in browserid.fetch_allowed_hosts")) { try only.target(for: "idp.example") }
        #expect(resolver.names.isEmpty)
        #expect(try only.target(for: "idp.internal:8443").addresses == [IPAddress("10.0.0.5")!])
    }

    @Test func anUnresolvableNameIsARefusal() {
        #expect(throws: FetchRefusal(detail: "nowhere.example does not resolve: no such name")) { try rules().target(for: "nowhere.example") }
    }
}

struct SupportDocumentFetchTests {
    final class Log: Sendable {
        let lines = Locked<[String]>([])
        func write(_ line: String) { lines.change { $0.append(line) } }
    }

    @Test func theFetchConnectsToTheCheckedAddressNotToASecondAnswer() throws {
        // rebind.test answers 127.0.0.2 first and 127.0.0.1 after; only 127.0.0.2 may be reached.
        let checked = try LoopbackListener(address: "127.0.0.2", answer: "not TLS\r\n")
        let other = try LoopbackListener(address: "127.0.0.1", port: checked.port, answer: LoopbackListener.http(body: "{}"))
        defer { checked.stop(); other.stop() }
        let resolver = ScriptedResolver(["rebind.test": [["127.0.0.2"], ["127.0.0.1"]]])
        let issuer = "rebind.test:\(checked.port)"
        let fetcher = HTTPSupportDocumentFetcher(timeout: 10, allowedHosts: [issuer], resolver: resolver)
        #expect { try fetcher.supportDocument(for: issuer) } throws: { ($0 as? BrowserIDError)?.reason.hasSuffix(generic) == true }
        #expect(resolver.names == ["rebind.test"])
        #expect(checked.connections == 1 && other.connections == 0)
    }

    @Test func everyFailureGivesOneReasonAndTheLogTheDetail() throws {
        let answers = [
            LoopbackListener.http(status: "500 Oops", body: "{}"), LoopbackListener.http(type: "text/html", body: "{}"),
            LoopbackListener.http(status: "302 Found", body: "", extra: ["Location: http://127.0.0.1:1/"]),
            LoopbackListener.http(body: String(repeating: " ", count: 70_000)), LoopbackListener.http(body: "[]"),
        ]
        for answer in answers {
            let listener = try LoopbackListener(answer: answer)
            defer { listener.stop() }
            let log = Log()
            let fetcher = HTTPSupportDocumentFetcher(timeout: 10, allowedHosts: ["idp.test"], httpHosts: ["idp.test": "127.0.0.1:\(listener.port)"],
                                                     log: log.write)
            #expect { try fetcher.supportDocument(for: "idp.test") } throws: {
                ($0 as? BrowserIDError)?.reason == "can't get public key for idp.test: \(generic)"
            }
            #expect(listener.connections == 1)
            #expect(log.lines.withLock { $0.count == 1 && $0[0].hasPrefix("support document for idp.test not fetched: ") })
        }
        let fetcher = HTTPSupportDocumentFetcher(resolver: ScriptedResolver([:]))
        for issuer in ["127.0.0.1", "[::ffff:127.0.0.1]", "nowhere.test", "bad/issuer"] {
            #expect { try fetcher.supportDocument(for: issuer) } throws: {
                ($0 as? BrowserIDError)?.reason == "can't get public key for \(issuer): \(generic)"
            }
        }
    }

    @Test func aGoodDocumentIsFetchedAndAFailureIsRememberedForAWhile() throws {
        let key = Keys.issuer.publicKey
        let document = SupportDocument.support(publicKey: key, keys: [key], authentication: "/a", provisioning: "/p")
        let good = try LoopbackListener(answer: LoopbackListener.http(body: String(decoding: document.jsonData, as: UTF8.self)))
        let bad = try LoopbackListener(answer: LoopbackListener.http(status: "503 Busy", body: ""))
        defer { good.stop(); bad.stop() }
        let clock = Locked(now)
        let fetcher = HTTPSupportDocumentFetcher(timeout: 10, failureLifetime: 60, allowedHosts: ["good.test", "bad.test"],
                                                 httpHosts: ["good.test": "127.0.0.1:\(good.port)", "bad.test": "127.0.0.1:\(bad.port)"],
                                                 now: { clock.withLock { $0 } })
        #expect(try fetcher.supportDocument(for: "good.test") == document)
        for _ in 0..<3 { #expect(throws: BrowserIDError.self) { try fetcher.supportDocument(for: "bad.test") } }
        #expect(bad.connections == 1, "failures within a minute are answered from memory")
        clock.change { $0 = $0.addingTimeInterval(61) }
        #expect(throws: BrowserIDError.self) { try fetcher.supportDocument(for: "bad.test") }
        #expect(bad.connections == 2 && good.connections == 1)
    }

    @Test func theSocketCallbackTakesOnlyTheCheckedAddressAndPort() throws {
        let guardian = ConnectGuard(addresses: [IPAddress("127.0.0.2")!], port: 443)
        func allows(_ text: String, _ port: UInt16) -> Bool {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(text)
            address.sin_port = port.bigEndian
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { guardian.allows($0) } }
        }
        #expect(allows("127.0.0.2", 443))
        #expect(!allows("127.0.0.1", 443) && !allows("127.0.0.2", 80))
    }
}
