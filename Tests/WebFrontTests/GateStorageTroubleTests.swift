// GateStorageTroubleTests.swift: the gate and the pages when the SQLite session lookup cannot read the database file.
import AccountCore
import Foundation
import Locking
import Testing
@testable import WebFront

struct GateStorageTroubleTests {
    /// The per-thread lookup connection cannot be opened (the file moved away here; SQLITE_BUSY or a failed open in
    /// production): storage trouble, answered 503 with Retry-After like any other, not 500.
    @Test func aDatabaseTheSessionLookupCannotOpenAnswers503WithRetryAfter() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-gate-trouble-" + UUID().uuidString
        let moved = folder + "-moved"
        defer { for path in [folder, moved] { try? FileManager.default.removeItem(atPath: path) } }
        let test = try makeApp(database: try AppDatabase.open(path: folder + "/frontdoor.sqlite")) { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        let form = ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"]
        #expect(browser.post("/account/sign_up", form).status == 303)
        try test.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        let cookie = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        let gate = Request(params: ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/auth/check", "REMOTE_ADDR": "127.0.0.1",
                                    "HTTP_COOKIE": cookie])
        #expect(test.app.respond(to: gate).status == 200)

        try FileManager.default.moveItem(atPath: folder, toPath: moved)
        // A worker thread that has not looked a session up yet opens its read-only connection now, and cannot.
        let app = test.app
        let answers = Locked<[Response]?>(nil)
        Thread {
            let home = Request(params: ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/", "REMOTE_ADDR": "127.0.0.1",
                                        "HTTP_COOKIE": cookie])
            let found = [app.respond(to: gate), app.respond(to: home)]
            answers.change { $0 = found }
        }.start()
        let found = try #require(answers.withLock(waitingUntil: { $0 != nil }) { $0 } ?? nil)
        for (name, response) in zip(["gate", "home page"], found) {
            #expect(response.status == 503, "\(name)")
            #expect(response.header("Retry-After") == "60", "\(name)")
        }
    }
}
