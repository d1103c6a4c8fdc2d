// PostgresMigrations+OpenID.swift: the step that stores the OpenID Connect provider's state (Sources/AccountCore/OpenID),
// after the others; the same history as SQLiteMigrations+OpenID.swift. Never edit a shipped step.
extension PostgresMigrations {
    static let openID: [Migration] = [
        // OpenID Connect provider (Sources/AccountCore/OpenID). Clients the CLI adds (the config's are not stored), grants
        // (one per sign-in of a client: the family of its tokens), codes, access and refresh tokens (each secret kept as
        // its SHA-256 only, used once by a conditional UPDATE), consents, device authorizations (RFC 8628), pushed
        // requests (RFC 9126) and the back-channel logout queue. A grant names the Frontdoor session it came from by
        // digest, without a foreign key: ending the session marks the grant revoked and queues its deliveries in the
        // same transaction (SessionStore), and the queue outlives the account. New tables only: hosts of the previous
        // version never read them.
        // The session lookup reads none of them, so no trigger tells the session caches.
        Migration(name: "v17-openid", statements: [
            """
            CREATE TABLE openIDClient (id text PRIMARY KEY, name text NOT NULL, secretDigests bytea NOT NULL, isPublic boolean NOT NULL,
                redirectURIs text NOT NULL, postLogoutRedirectURIs text NOT NULL, scopes text NOT NULL, allow text NOT NULL,
                requiresSecondFactor boolean NOT NULL, firstParty boolean NOT NULL, subjectType text NOT NULL,
                backchannelLogoutURI text, apiSignIn boolean NOT NULL, createdAt double precision NOT NULL)
            """,
            """
            CREATE TABLE openIDGrant (id text PRIMARY KEY, clientId text NOT NULL,
                accountId bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                sessionDigest bytea NOT NULL, sid text NOT NULL, scopes text NOT NULL, nonce text, authTime double precision NOT NULL,
                factors bigint NOT NULL, backchannel boolean NOT NULL, createdAt double precision NOT NULL, expiresAt double precision NOT NULL,
                lastUsedAt double precision, revokedAt double precision)
            """,
            "CREATE INDEX openIDGrant_on_accountId ON openIDGrant (accountId, clientId)",
            "CREATE INDEX openIDGrant_on_sessionDigest ON openIDGrant (sessionDigest)",
            "CREATE INDEX openIDGrant_on_expiresAt ON openIDGrant (expiresAt)",
            "CREATE INDEX openIDGrant_on_revokedAt ON openIDGrant (revokedAt)",
            """
            CREATE TABLE openIDCode (digest bytea PRIMARY KEY CHECK (length(digest) = 32), clientId text NOT NULL,
                accountId bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE, sessionDigest bytea NOT NULL,
                redirectURI text NOT NULL, scopes text NOT NULL, nonce text, codeChallenge text, authTime double precision NOT NULL,
                factors bigint NOT NULL, createdAt double precision NOT NULL, expiresAt double precision NOT NULL, usedAt double precision, grantId text)
            """,
            "CREATE INDEX openIDCode_on_accountId ON openIDCode (accountId)",
            "CREATE INDEX openIDCode_on_expiresAt ON openIDCode (expiresAt)",
            """
            CREATE TABLE openIDToken (digest bytea PRIMARY KEY CHECK (length(digest) = 32), kind text NOT NULL,
                grantId text NOT NULL REFERENCES openIDGrant(id) ON DELETE CASCADE, scopes text NOT NULL,
                createdAt double precision NOT NULL, expiresAt double precision NOT NULL, usedAt double precision)
            """,
            "CREATE INDEX openIDToken_on_grantId ON openIDToken (grantId)",
            "CREATE INDEX openIDToken_on_expiresAt ON openIDToken (expiresAt)",
            """
            CREATE TABLE openIDConsent (accountId bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE, clientId text NOT NULL,
                scopes text NOT NULL, grantedAt double precision NOT NULL, lastUsedAt double precision, PRIMARY KEY (accountId, clientId))
            """,
            """
            CREATE TABLE openIDDevice (digest bytea PRIMARY KEY CHECK (length(digest) = 32), userCodeDigest bytea NOT NULL UNIQUE,
                clientId text NOT NULL, scopes text NOT NULL, state text NOT NULL, pollInterval double precision NOT NULL,
                lastPolledAt double precision, accountId bigint REFERENCES account(id) ON DELETE CASCADE, sessionDigest bytea,
                authTime double precision, factors bigint, grantId text, createdAt double precision NOT NULL, expiresAt double precision NOT NULL)
            """,
            "CREATE INDEX openIDDevice_on_accountId ON openIDDevice (accountId)",
            "CREATE INDEX openIDDevice_on_expiresAt ON openIDDevice (expiresAt)",
            """
            CREATE TABLE openIDPushedRequest (digest bytea PRIMARY KEY CHECK (length(digest) = 32), clientId text NOT NULL,
                parameters text NOT NULL, createdAt double precision NOT NULL, expiresAt double precision NOT NULL, usedAt double precision)
            """,
            "CREATE INDEX openIDPushedRequest_on_expiresAt ON openIDPushedRequest (expiresAt)",
            """
            CREATE TABLE openIDLogoutDelivery (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, clientId text NOT NULL, accountId bigint NOT NULL,
                sid text NOT NULL, grantId text NOT NULL, attempts bigint NOT NULL DEFAULT 0, dueAt double precision NOT NULL,
                createdAt double precision NOT NULL, deliveredAt double precision, abandonedAt double precision)
            """,
            "CREATE INDEX openIDLogoutDelivery_pending ON openIDLogoutDelivery (dueAt) WHERE deliveredAt IS NULL AND abandonedAt IS NULL",
            "CREATE INDEX openIDLogoutDelivery_on_createdAt ON openIDLogoutDelivery (createdAt)",
        ]),
    ]
}
