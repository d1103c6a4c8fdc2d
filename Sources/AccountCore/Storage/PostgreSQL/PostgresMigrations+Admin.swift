// PostgresMigrations+Admin.swift: the step the admin pages need, after the others; the same history as
// SQLiteMigrations+Admin.swift. Never edit a shipped step.
extension PostgresMigrations {
    static let admin: [Migration] = [
        // Who made a change on someone else's account (an admin's account id; NULL for the person themself, the CLI
        // and the system). A nullable column without a default is a catalog change only (no table rewrite), and hosts
        // of the previous version insert with their explicit column lists and leave it NULL.
        Migration(name: "v18-audit-actor", statements: [
            "ALTER TABLE audit ADD COLUMN actorId bigint",
        ]),
    ]
}
