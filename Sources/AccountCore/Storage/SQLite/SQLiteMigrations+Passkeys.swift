// SQLiteMigrations+Passkeys.swift: the step that stores passkeys (Credentials/Passkeys.swift), after the others in
// SQLiteMigrations.swift; the same history as PostgresMigrations+Passkeys.swift. Never edit a shipped step.
import GRDB

extension SQLiteBackend {
    static func registerPasskeySteps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-passkeys") { db in
            // A passkey: its credential id is unique across all accounts (the sign-in finds the account by it), its COSE
            // public key is stored as the authenticator gave it. A challenge is kept as the SHA-256 of its bytes, used up
            // once by a conditional UPDATE (PasskeyStore), and bound to the browser that asked (the digest of its
            // binding cookie). New tables only: hosts of the previous version never read them.
            try db.execute(sql: """
                CREATE TABLE passkey (id INTEGER PRIMARY KEY AUTOINCREMENT,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    credentialId BLOB NOT NULL UNIQUE, publicKey BLOB NOT NULL, algorithm INTEGER NOT NULL,
                    signCount INTEGER NOT NULL DEFAULT 0, aaguid BLOB NOT NULL, name TEXT NOT NULL,
                    backupEligible BOOLEAN NOT NULL DEFAULT FALSE, backedUp BOOLEAN NOT NULL DEFAULT FALSE,
                    createdAt DOUBLE NOT NULL, lastUsedAt DOUBLE, counterWentBackAt DOUBLE);
                CREATE INDEX passkey_on_accountId ON passkey (accountId);
                CREATE TABLE passkeyChallenge (digest BLOB PRIMARY KEY CHECK (length(digest) = 32), purpose TEXT NOT NULL,
                    accountId INTEGER REFERENCES account(id) ON DELETE CASCADE, bindingDigest BLOB NOT NULL,
                    createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL, usedAt DOUBLE);
                CREATE INDEX passkeyChallenge_on_accountId ON passkeyChallenge (accountId);
                CREATE INDEX passkeyChallenge_on_expiresAt ON passkeyChallenge (expiresAt);
                """)
        }
    }
}
