// Migrations.swift: the schema, one registered migration per shipped change. Never edit a shipped migration.
import GRDB

extension AppDatabase {
    /// Every migration in order. Table and column names are spelled out, not taken from app types.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-accounts-sessions") { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("passwordHash", .text).notNull()
                t.column("createdAt", .double).notNull()
                t.column("updatedAt", .double).notNull()
            }
            try db.create(table: "emailAddress") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("address", .text).notNull()
                t.column("normalizedAddress", .text).notNull().unique()
                t.column("isPrimary", .boolean).notNull().defaults(to: false)
                t.column("verifiedAt", .double)
                t.column("createdAt", .double).notNull()
            }
            try db.create(index: "emailAddress_onePrimary", on: "emailAddress", columns: ["accountId"],
                          unique: true, condition: Column("isPrimary"))
            try db.create(table: "session") { t in
                t.primaryKey("digest", .blob).check { length($0) == 32 }
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("createdAt", .double).notNull()
                t.column("lastSeenAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
                t.column("rememberMe", .boolean).notNull()
                t.column("userAgent", .text).notNull()
                t.column("remoteAddress", .text).notNull()
            }
            try db.create(table: "serverSecret") { t in
                t.primaryKey("name", .text)
                t.column("value", .blob).notNull()
            }
        }
        return migrator
    }
}
