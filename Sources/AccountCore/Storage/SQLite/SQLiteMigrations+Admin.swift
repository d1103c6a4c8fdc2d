// SQLiteMigrations+Admin.swift: the step the admin pages need, after the others; the same history as
// PostgresMigrations+Admin.swift. Never edit a shipped step.
import GRDB

extension SQLiteBackend {
    static func registerAdminSteps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18-audit-actor") { db in
            // Who made a change on someone else's account (an admin's account id; NULL for the person themself, the
            // CLI and the system). A nullable column: hosts of the previous version insert with their explicit column
            // lists and leave it NULL, and read past it.
            try db.execute(sql: "ALTER TABLE audit ADD COLUMN actorId INTEGER")
        }
    }
}
