// SQLiteMigrations+OneTimeCodes.swift: the step that stores one-time codes (RFC 6238) and recovery codes, registered
// after the identity steps; the same history as PostgresMigrations+OneTimeCodes.swift. Never edit a shipped step.
import GRDB

extension SQLiteBackend {
    static func registerOneTimeCodeSteps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-one-time-codes") { db in
            // `oneTimeCode`: the account's secret sealed with the token key (the server computes codes, so it cannot be a
            // digest); `confirmedAt` NULL until a first code confirmed it; `lastUsedStep` the replay guard, moved only
            // forward by a conditional UPDATE. `recoveryCode`: SHA-256 digests, each used once (`usedAt`).
            try db.execute(sql: """
                CREATE TABLE oneTimeCode (accountId INTEGER PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
                    sealedSecret BLOB NOT NULL, createdAt DOUBLE NOT NULL, confirmedAt DOUBLE,
                    lastUsedStep INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE recoveryCode (id INTEGER PRIMARY KEY AUTOINCREMENT,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE, digest BLOB NOT NULL,
                    createdAt DOUBLE NOT NULL, usedAt DOUBLE);
                CREATE UNIQUE INDEX recoveryCode_account_digest ON recoveryCode (accountId, digest);
                """)
        }
    }
}
