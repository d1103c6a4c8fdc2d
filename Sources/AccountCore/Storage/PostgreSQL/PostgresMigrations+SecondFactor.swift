// PostgresMigrations+SecondFactor.swift: sessions that know how many factors proved them, and the short-lived
// challenge between a right password and the second factor; the same history as SQLiteMigrations+SecondFactor.swift.
// Never edit a shipped step.
extension PostgresMigrations {
    static let secondFactor: [Migration] = [
        // `session.factors`: 1 (a password, a provider) or 2 (a password and a second factor, a passkey). The default
        // keeps an older host's INSERT (which names no factors) a one-factor session. The session lookup reads it, so a
        // step-up (1 → 2) tells every listening host, like a session ended.
        // `secondFactorChallenge`: what a right password leaves for the second step (SecondFactorSignIn.swift): the
        // digest of the challenge token, the account, remember-me, the kind of session to make, the digest of the
        // browser's binding ('' for an app), and a short life; used once (`usedAt`, set by a conditional UPDATE).
        Migration(name: "v16-second-factor", statements: [
            "ALTER TABLE session ADD COLUMN factors integer NOT NULL DEFAULT 1 CHECK (factors BETWEEN 1 AND 2)",
            """
            CREATE TRIGGER session_factors_notify AFTER UPDATE OF factors ON session FOR EACH ROW
                WHEN (OLD.factors IS DISTINCT FROM NEW.factors) EXECUTE FUNCTION session_notify()
            """,
            """
            CREATE TABLE secondFactorChallenge (digest bytea PRIMARY KEY CHECK (length(digest) = 32),
                accountId bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE, rememberMe boolean NOT NULL DEFAULT FALSE,
                kind text NOT NULL, bindingDigest bytea NOT NULL, createdAt double precision NOT NULL,
                expiresAt double precision NOT NULL, usedAt double precision)
            """,
            "CREATE INDEX secondFactorChallenge_on_accountId ON secondFactorChallenge (accountId)",
            "CREATE INDEX secondFactorChallenge_on_expiresAt ON secondFactorChallenge (expiresAt)",
        ]),
    ]
}
