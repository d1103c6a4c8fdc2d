// HealthPage.swift: `GET <base>/health` (the process answers) and `GET <base>/health/ready` (it can serve: the database
// answers a cheap query and, on PostgreSQL with the session cache on, the listener that keeps the cache honest is up).
//
// Options: none of its own. Who may ask is nginx's choice (nginx/frontdoor.conf: loopback only as shipped, since the
// answer tells an outsider when the database is down); the app answers whoever nginx lets through.
// The answers are JSON, name no secret (no URL, host or error text), read no cookie and set none, and are never cached.
// Not ready is 503 with a Retry-After, so a load balancer and systemd-style probes both understand it.
import AccountCore
import Foundation

struct HealthPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let database: AppDatabase
    init(_ core: AccountServices) { database = core.database }

    /// Seconds a prober is asked to wait before asking again while not ready.
    static let retryAfter = "5"

    /// Alive: answered without touching the database.
    func alive(_ context: RequestContext) throws -> Response {
        Response.json(["status": "ok"])
    }

    /// Ready: the database answers (and, on SQLite, its file is still where it was opened, since writes to a
    /// file moved or deleted under a running process are lost), and the session-cache listener listens when there is one.
    func ready(_ context: RequestContext) throws -> Response {
        let facts = Self.readiness(database)
        var checks: [String: Any] = ["database": facts.database ? "ok" : "unavailable"]
        if let listening = facts.listener { checks["listener"] = listening ? "ok" : "down" }
        var response = Response.json(["status": facts.ready ? "ok" : "unavailable", "checks": checks], status: facts.ready ? 200 : 503)
        if !facts.ready { response.setHeader("Retry-After", Self.retryAfter) }
        return response
    }

    /// What `ready` checks (also shown on the admin health page).
    struct Readiness: Equatable {
        /// The database answers (`databaseAnswers`).
        var database: Bool
        /// The session-cache listener hears changes; nil when there is none (SQLite, cache off) or the database is away.
        var listener: Bool?
        var ready: Bool { database && listener != false }
    }

    /// The readiness facts now.
    static func readiness(_ database: AppDatabase) -> Readiness {
        let databaseUp = databaseAnswers(database)
        // A server backend with a session cache reports whether its listener hears changes; without one, nothing to wait for.
        return Readiness(database: databaseUp, listener: databaseUp ? database.backend.figures?.sessionCache.map(\.listening) : nil)
    }

    /// One round trip (`SELECT 1`); on SQLite also the file where it was opened. Also `frontdoor_database_up`.
    static func databaseAnswers(_ database: AppDatabase) -> Bool {
        if let path = (database.backend as? SQLiteBackend)?.filePath, !FileManager.default.fileExists(atPath: path) { return false }
        return (try? database.read { tx in try tx.value(Int.self, "SELECT 1") }) == 1
    }
}
