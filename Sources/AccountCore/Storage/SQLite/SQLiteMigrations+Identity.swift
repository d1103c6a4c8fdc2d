// SQLiteMigrations+Identity.swift: the steps that give apps who a person is (groups and usernames), in the order
// SQLiteMigrations.swift registers them after its own. Never edit a shipped step.
import GRDB

extension SQLiteBackend {
    static func registerIdentitySteps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-groups") { db in
            // Groups (Groups.swift): a name unique without case, and memberships that go with their account or group.
            // (PostgreSQL's step also tells other hosts when a membership comes or goes; one SQLite file has none.)
            try db.execute(sql: """
                CREATE TABLE accountGroup (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
                    normalizedName TEXT NOT NULL UNIQUE, createdAt DOUBLE NOT NULL);
                CREATE TABLE groupMember (accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    groupId INTEGER NOT NULL REFERENCES accountGroup(id) ON DELETE CASCADE, createdAt DOUBLE NOT NULL,
                    PRIMARY KEY (accountId, groupId));
                CREATE INDEX groupMember_on_groupId ON groupMember (groupId);
                """)
        }
        migrator.registerMigration("v15-usernames") { db in
            // Usernames (Usernames.swift): unique without case, by the index on the lower-cased name. The column is
            // nullable so an older host's sign-up (its INSERT names no username) still works while hosts are upgraded:
            // AppDatabase.migrate fills the accounts there are once this step is applied, and an account made by an
            // older host gets its name at its first session lookup (Sessions.find). The second index finds those.
            try db.alter(table: "account") { t in t.add(column: "username", .text) }
            try db.execute(sql: """
                CREATE UNIQUE INDEX account_username ON account (lower(username));
                CREATE INDEX account_withoutUsername ON account (id) WHERE username IS NULL;
                """)
            // (PostgreSQL's step also has its session-notify trigger fire on username and displayName; SQLite has no cache.)
        }
    }
}
