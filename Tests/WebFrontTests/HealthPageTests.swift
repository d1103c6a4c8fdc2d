// HealthPageTests.swift: `<base>/health` and `<base>/health/ready` in-process (the e2e suite checks them through nginx,
// on both backends, with the database away).
@testable import AccountCore
import Foundation
import Synchronization
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

    @Test func readyWaitsForTheSessionCacheListenerWhereThereIsOne() throws {
        // A server backend's figures as PostgreSQL's reports them, with the listener up or down (the e2e suite cannot
        // hold a real listener down: it reconnects at once).
        let backend = ListenerBackend(inner: try SQLiteBackend.memory())
        let database = AppDatabase(backend: backend)
        try database.migrate()
        let browser = TestBrowser(try makeApp(database: database).app)
        let up = browser.get("/account/health/ready")
        #expect(up.status == 200 && up.text == #"{"checks":{"database":"ok","listener":"ok"},"status":"ok"}"#)
        backend.listening.withLock { $0 = false }
        let down = browser.get("/account/health/ready")
        #expect(down.status == 503 && down.text == #"{"checks":{"database":"ok","listener":"down"},"status":"unavailable"}"#)
        #expect(down.headers.contains { $0.name == "Retry-After" })
    }
}

/// An in-memory SQLite database that reports a session cache whose listener is up or down.
final class ListenerBackend: StorageBackend, Sendable {
    let inner: SQLiteBackend
    let listening = Mutex(true)
    init(inner: SQLiteBackend) { self.inner = inner }
    var dialect: SQLDialect { inner.dialect }
    func read<T>(_ body: (Transaction) throws -> T) throws -> T { try inner.read(body) }
    func write<T>(_ body: (Transaction) throws -> T) throws -> T { try inner.write(body) }
    func findBrowserSession(digest: Data) throws -> SessionInfo? { try inner.findBrowserSession(digest: digest) }
    func appliedMigrations() throws -> [String] { try inner.appliedMigrations() }
    var knownMigrations: [String] { inner.knownMigrations }
    func migrate() throws { try inner.migrate() }
    var figures: StorageFigures? {
        StorageFigures(roundTrips: 0, sessionCache: SessionCacheFigures(hits: 0, misses: 0, invalidations: 0, resets: 0, entries: 0,
                                                                        listening: listening.withLock { $0 }))
    }
}
