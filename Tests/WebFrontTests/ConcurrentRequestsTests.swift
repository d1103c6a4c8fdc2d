// ConcurrentRequestsTests.swift: the app answered from several threads at once, the way the FastCGI workers call it.
// The threads share what the workers share: the database pool and the per-thread session lookup, the templates and
// the page cache, the CSRF key, the hashing pool, the BrowserID keys, the metrics. `make tsan` runs this under the
// thread sanitizer, where any unsynchronised access among them is a report (and a failed run).
import AccountCore
import BrowserID
import Foundation
import Locking
import Testing
@testable import WebFront

struct ConcurrentRequestsTests {
    /// Runs `body(index)` on `count` threads started together; returns when all have finished.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = Locked(0)
        for index in 0..<count {
            Thread {
                body(index)
                finished.change { $0 += 1 }
            }.start()
        }
        _ = finished.withLock(waitingUntil: { $0 == count }) { _ in }
    }

    @Test func fourWorkersSignUpSignInCertifyAndPassTheGateAtOnce() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-concurrent-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try AppDatabase.open(path: folder + "/frontdoor.sqlite")
        let test = try makeApp(browserID: true, database: database) { $0.confirmation.required = false }
        let userKey = try RSASigningKey.generate().publicKey
        let app = test.app, rounds = 3
        let statuses = Locked<[[String: Int]]>([])
        onThreads(4) { worker in
            for round in 0..<rounds {
                let browser = TestBrowser(app), email = "worker\(worker)-\(round)@example.com"
                var seen: [String: Int] = [:]
                seen["sign_in page"] = browser.get("/account/sign_in").status
                seen["sign_up"] = browser.post("/account/sign_up", ["email": email, "password": "correct horse",
                                                                    "password_confirmation": "correct horse"]).status
                seen["home"] = browser.get("/account/").status
                seen["gate"] = browser.get("/account/auth/check").status
                try? database.write { tx in
                    try tx.execute("UPDATE emailAddress SET verifiedAt = 1 WHERE address = ?", [email])
                }
                seen["certify"] = browser.post("/account/browserid/certify", ["email": email, "pubkey": userKey.jsonText]).status
                seen["support document"] = browser.get("/.well-known/browserid").status
                seen["sign_out"] = browser.post("/account/sign_out", [:]).status
                seen["gate signed out"] = browser.get("/account/auth/check").status
                seen["sign_in"] = browser.post("/account/sign_in", ["email": email, "password": "correct horse"]).status
                seen["gate again"] = browser.get("/account/auth/check").status
                statuses.withLock { $0.append(seen) }
            }
        }
        let expected = ["sign_in page": 200, "sign_up": 303, "home": 200, "gate": 200, "certify": 200, "support document": 200,
                        "sign_out": 303, "gate signed out": 401, "sign_in": 303, "gate again": 200]
        let all = statuses.withLock { $0 }
        #expect(all.count == 4 * rounds)
        for seen in all { #expect(seen == expected) }
        #expect(try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 4 * rounds)
    }
}
