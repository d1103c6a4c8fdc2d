// SQLiteMigrations+SecondFactor.swift: sessions that know how many factors proved them, and the short-lived challenge
// between a right password and the second factor; the same history as PostgresMigrations+SecondFactor.swift (see its
// comments). Never edit a shipped step.
import GRDB

extension SQLiteBackend {
    static func registerSecondFactorSteps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-second-factor") { db in
            // (PostgreSQL's step also tells other hosts when a session's factors change; one SQLite file has no cache.)
            try db.alter(table: "session") { t in
                t.add(column: "factors", .integer).notNull().defaults(to: 1).check { $0 >= 1 && $0 <= 2 }
            }
            try db.create(table: "secondFactorChallenge") { t in
                t.primaryKey("digest", .blob).check { length($0) == 32 }
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("rememberMe", .boolean).notNull().defaults(to: false)
                t.column("kind", .text).notNull()
                t.column("bindingDigest", .blob).notNull()
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
                t.column("usedAt", .double)
            }
        }
    }
}
