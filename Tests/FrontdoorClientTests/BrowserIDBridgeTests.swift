// BrowserIDBridgeTests.swift: the native bridge's app side without a server: the page's URL, reading callbacks, the
// hand-off of the assertion to the app's own server (the default: verification happens there), and the checks of a
// verifier's receipt where a server written in Swift runs them (a scripted transport).
import Foundation
import FrontdoorClient
import Testing

struct BrowserIDBridgeTests {
    static let now = Date(timeIntervalSince1970: 1_795_514_400)
    static let assertion = "aaa.bbb.ccc~ddd.eee.fff"

    static let appServer = URL(string: "https://my.app/session/browserid")!

    /// A bridge that verifies with Frontdoor's /verify, as the app's server does when it runs FrontdoorClient.
    func bridge(_ steps: [FakeTransport.Step]) -> (BrowserIDBridge, FakeTransport) {
        let transport = FakeTransport(steps)
        return (BrowserIDBridge(serverURL: Fixture.server, verifierURL: Fixture.server.appendingPathComponent("verify"), transport: transport,
                                now: { Self.now }), transport)
    }

    func receipt(status: String = "okay", email: String = "ann@example.com", audience: String = "https://my.app",
                 expires: Date = now.addingTimeInterval(120)) -> String {
        let milliseconds = Int64(expires.timeIntervalSince1970 * 1000)
        return #"{"status":"\#(status)","email":"\#(email)","audience":"\#(audience)","expires":\#(milliseconds),"issuer":"id.example.com"}"#
    }

    @Test func thePageURLCarriesTheNormalizedOrigin() throws {
        let bridge = BrowserIDBridge(serverURL: Fixture.server)
        #expect(try bridge.dialogURL(origin: "http://My.App/").absoluteString
                == "http://127.0.0.1:9/account/browserid/native?origin=http%3A%2F%2Fmy.app")
        #expect(try bridge.dialogURL(origin: "https%3A%2F%2Fmy.app%3A8443").absoluteString
                == "http://127.0.0.1:9/account/browserid/native?origin=https%3A%2F%2Fmy.app%3A8443")
        #expect(try bridge.dialogURL(origin: "https://my.app:443").absoluteString.hasSuffix("origin=https%3A%2F%2Fmy.app"))
        for bad in ["my.app", "ftp://my.app", "https://my.app/path", "https://my.app?x=1", "https://ann@my.app", "javascript:alert(1)"] {
            #expect(throws: BrowserIDBridgeError.self, "\(bad)") { try bridge.dialogURL(origin: bad) }
        }
        #expect(bridge.verifierURL == nil, "the device verifies nothing unless the app names a verifier")
    }

    @Test func theAssertionGoesToTheAppsOwnServerWhichVerifiesIt() async throws {
        let transport = FakeTransport([.answer(200, #"{"session":"s-1"}"#), .answer(403, #"{"error":"no"}"#), .fail(.cannotConnectToHost)])
        let bridge = BrowserIDBridge(serverURL: Fixture.server, transport: transport)
        let answer = try await bridge.handOff(assertion: Self.assertion, audience: "https://my.app/", to: Self.appServer)
        #expect(answer.status == 200 && answer.body == Data(#"{"session":"s-1"}"#.utf8), "the app's server's answer, as it is")
        let sent = try #require(transport.sent.first)
        #expect(sent.method == "POST" && sent.url == Self.appServer.absoluteString)
        #expect(sent.json?["assertion"] as? String == Self.assertion && sent.json?["audience"] as? String == "https://my.app")
        #expect(sent.headers["Content-Type"] == "application/json")
        await #expect(throws: BrowserIDBridgeError.appServer(status: 403)) {
            try await bridge.handOff(assertion: Self.assertion, audience: "https://my.app", to: Self.appServer)
        }
        await #expect(throws: BrowserIDBridgeError.self) {
            try await bridge.handOff(assertion: Self.assertion, audience: "https://my.app", to: Self.appServer)
        }
        #expect(transport.sent.allSatisfy { $0.path != "/account/verify" }, "Frontdoor's verifier is never asked from the device")
    }

    @Test func verifyingOnTheDeviceNeedsAVerifierTheAppNames() async throws {
        let transport = FakeTransport([])
        let bridge = BrowserIDBridge(serverURL: Fixture.server, transport: transport, now: { Self.now })
        await #expect(throws: BrowserIDBridgeError.noVerifier) { try await bridge.verify(assertion: Self.assertion, audience: "https://my.app") }
        #expect(transport.sent.isEmpty)
    }

    @Test func callbacksAreReadAndAnythingElseIsAClearError() throws {
        let success = try #require(URL(string: "browserid-origin://didSucceedWithAssertion?data=aaa.bbb.ccc%7Eddd.eee.fff"))
        #expect(BrowserIDBridge.isCallback(success))
        #expect(try BrowserIDBridge.callback(success) == .assertion(Self.assertion))
        #expect(try BrowserIDBridge.callback(try #require(URL(string: "browserid-origin://didCancel"))) == .cancelled)
        #expect(!BrowserIDBridge.isCallback(try #require(URL(string: "https://my.app/"))))
        for malformed in ["browserid-origin://didSucceedWithAssertion", "browserid-origin://didSucceedWithAssertion?data=",
                          "browserid-origin://didSucceedWithAssertion?data=not-an-assertion",
                          "browserid-origin://didSucceedWithAssertion?data=aaa.bbb~ddd.eee.fff"] {
            let url = try #require(URL(string: malformed))
            #expect(throws: BrowserIDBridgeError.malformedCallback(malformed)) { try BrowserIDBridge.callback(url) }
        }
        for other in ["browserid-origin://somethingElse?data=x", "https://my.app/?data=aaa.bbb.ccc~ddd.eee.fff"] {
            let url = try #require(URL(string: other))
            #expect(throws: BrowserIDBridgeError.notACallback(other)) { try BrowserIDBridge.callback(url) }
        }
    }

    @Test func theSeedShimsRequestNamesTheOrigin() throws {
        let raw = try #require(URL(string: "browserid-origin://getVerifiedEmail/callback?data=http://localhost:8080"))
        #expect(try BrowserIDBridge.requestedOrigin(in: raw) == "http://localhost:8080")
        let encoded = try #require(URL(string: "browserid-origin://getVerifiedEmail/callback?data=https%3A%2F%2Fmy.app%2F"))
        #expect(try BrowserIDBridge.requestedOrigin(in: encoded) == "https://my.app")
        let bad = try #require(URL(string: "browserid-origin://getVerifiedEmail/callback?data=file%3A%2F%2F%2Fetc"))
        #expect(throws: BrowserIDBridgeError.self) { try BrowserIDBridge.requestedOrigin(in: bad) }
    }

    @Test func anOkayReceiptForTheAudienceIsReturned() async throws {
        let (bridge, transport) = bridge([.answer(200, receipt(audience: "https://my.app:443"))])
        let got = try await bridge.verify(assertion: Self.assertion, audience: "https://my.app/")
        #expect(got == BrowserIDReceipt(email: "ann@example.com", audience: "https://my.app",
                                        expires: Self.now.addingTimeInterval(120), issuer: "id.example.com"))
        let sent = try #require(transport.sent.first)
        #expect(sent.method == "POST" && sent.path == "/account/verify")
        #expect(sent.json?["assertion"] as? String == Self.assertion)
        #expect(sent.json?["audience"] as? String == "https://my.app")
    }

    @Test func everyReceiptThatDoesNotMatchIsRefused() async throws {
        let cases: [(FakeTransport.Step, BrowserIDBridgeError)] = [
            (.answer(200, #"{"status":"failure","reason":"assertion has expired"}"#), .refused(reason: "assertion has expired")),
            (.answer(400, #"{"status":"failure","reason":"need assertion and audience"}"#), .refused(reason: "need assertion and audience")),
            (.answer(200, receipt(audience: "https://evil.app")), .receiptMismatch("another audience")),
            (.answer(200, receipt(expires: Self.now)), .receiptMismatch("expired")),
            (.answer(200, receipt(email: "")), .receiptMismatch("no email")),
            (.answer(200, receipt(status: "maybe")), .receiptMismatch("status is not okay")),
            (.answer(200, "<html>"), .invalidResponse),
            (.answer(502, "Bad Gateway"), .verifier(status: 502)),
        ]
        for (step, expected) in cases {
            let (bridge, _) = bridge([step])
            await #expect(throws: expected) { try await bridge.verify(assertion: Self.assertion, audience: "https://my.app") }
        }
        let (offline, _) = bridge([.fail(.cannotConnectToHost)])
        await #expect(throws: BrowserIDBridgeError.self) { try await offline.verify(assertion: Self.assertion, audience: "https://my.app") }
        let (unasked, transport) = bridge([])
        await #expect(throws: BrowserIDBridgeError.invalidOrigin("my.app")) {
            try await unasked.verify(assertion: Self.assertion, audience: "my.app")
        }
        #expect(transport.sent.isEmpty, "a bad audience is refused before asking")
    }
}
