// HealthPageTests.swift: `<base>/health` and `<base>/health/ready` in-process (the e2e suite checks them through nginx,
// on both backends, with the database away).
import AccountCore
import Foundation
import Testing
@testable import WebFront

struct HealthPageTests {
    /// An app on an SQLite file at `path`.
    func app(path: String) throws -> TestApp {
        try makeApp(database: try AppDatabase.open(path: path)) { $0.database.path = path }
    }

    @Test func aliveAndReadyAnswerJSONWithNoCookieAndNoStore() throws {
        let path = NSTemporaryDirectory() + "frontdoor-health-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let browser = TestBrowser(try app(path: path).app)
        let alive = browser.get("/account/health")
        #expect(alive.status == 200 && alive.text == #"{"status":"ok"}"#)
        let ready = browser.get("/account/health/ready")
        #expect(ready.status == 200 && ready.text == #"{"checks":{"database":"ok"},"status":"ok"}"#)
        for response in [alive, ready] {
            #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
            #expect(response.headers.contains { $0.name == "Cache-Control" && $0.value == "no-store" })
            #expect(!response.headers.contains { $0.name == "Set-Cookie" })
        }
        #expect(browser.post("/account/health", [:], csrf: false).status == 405)
    }

    @Test func readyIs503WithRetryAfterWhenTheDatabaseFileIsGoneAndAliveStays200() throws {
        let path = NSTemporaryDirectory() + "frontdoor-health-\(UUID().uuidString).sqlite"
        let browser = TestBrowser(try app(path: path).app)
        try FileManager.default.removeItem(atPath: path)
        defer { for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let ready = browser.get("/account/health/ready")
        #expect(ready.status == 503 && ready.text == #"{"checks":{"database":"unavailable"},"status":"unavailable"}"#)
        #expect(ready.headers.contains { $0.name == "Retry-After" && $0.value == HealthPage.retryAfter })
        #expect(!ready.text.contains(path))
        #expect(browser.get("/account/health").status == 200)
    }
}
