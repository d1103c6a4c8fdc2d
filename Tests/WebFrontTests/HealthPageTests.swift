// HealthPageTests.swift: `<base>/health` and `<base>/health/ready` in-process (the e2e suite checks them through nginx,
// on both backends, with the database away).
import AccountCore
import Foundation
import Testing
@testable import WebFront

struct HealthPageTests {
    /// An app whose configured SQLite path is a file that exists (the tests' database is in memory).
    func app(path: String) throws -> TestApp {
        FileManager.default.createFile(atPath: path, contents: Data())
        return try makeApp { $0.database.path = path }
    }

    @Test func aliveAndReadyAnswerJSONWithNoCookieAndNoStore() throws {
        let path = NSTemporaryDirectory() + "frontdoor-health-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
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
        let ready = browser.get("/account/health/ready")
        #expect(ready.status == 503 && ready.text == #"{"checks":{"database":"unavailable"},"status":"unavailable"}"#)
        #expect(ready.headers.contains { $0.name == "Retry-After" && $0.value == HealthPage.retryAfter })
        #expect(!ready.text.contains(path))
        #expect(browser.get("/account/health").status == 200)
    }
}
