// SQLiteMigrations+OpenID.swift: the step that stores the OpenID Connect provider's state (Sources/AccountCore/OpenID),
// after the others; the same history as PostgresMigrations+OpenID.swift. Never edit a shipped step.
import GRDB

extension SQLiteBackend {
    static func registerOpenIDSteps(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17-openid") { db in
            // OpenID Connect provider (Sources/AccountCore/OpenID). Clients the CLI adds (the config's are not stored), grants
            // (one per sign-in of a client: the family of its tokens), codes, access and refresh tokens (each secret kept as
            // its SHA-256 only, used once by a conditional UPDATE), consents, device authorizations (RFC 8628), pushed
            // requests (RFC 9126) and the back-channel logout queue. A grant names the Frontdoor session it came from by
            // digest, without a foreign key: ending the session marks the grant revoked and queues its deliveries in the
            // same transaction (SessionStore), and the queue outlives the account. New tables only: hosts of the previous
            // version never read them.
            try db.execute(sql: """
                CREATE TABLE openIDClient (id TEXT PRIMARY KEY, name TEXT NOT NULL, secretDigests BLOB NOT NULL, isPublic BOOLEAN NOT NULL,
                redirectURIs TEXT NOT NULL, postLogoutRedirectURIs TEXT NOT NULL, scopes TEXT NOT NULL, allow TEXT NOT NULL,
                requiresSecondFactor BOOLEAN NOT NULL, firstParty BOOLEAN NOT NULL, subjectType TEXT NOT NULL,
                backchannelLogoutURI TEXT, apiSignIn BOOLEAN NOT NULL, createdAt DOUBLE NOT NULL);
                CREATE TABLE openIDGrant (id TEXT PRIMARY KEY, clientId TEXT NOT NULL,
                accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                sessionDigest BLOB NOT NULL, sid TEXT NOT NULL, scopes TEXT NOT NULL, nonce TEXT, authTime DOUBLE NOT NULL,
                factors INTEGER NOT NULL, backchannel BOOLEAN NOT NULL, createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL,
                lastUsedAt DOUBLE, revokedAt DOUBLE);
                CREATE INDEX openIDGrant_on_accountId ON openIDGrant (accountId, clientId);
                CREATE INDEX openIDGrant_on_sessionDigest ON openIDGrant (sessionDigest);
                CREATE INDEX openIDGrant_on_expiresAt ON openIDGrant (expiresAt);
                CREATE INDEX openIDGrant_on_revokedAt ON openIDGrant (revokedAt);
                CREATE TABLE openIDCode (digest BLOB PRIMARY KEY CHECK (length(digest) = 32), clientId TEXT NOT NULL,
                accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE, sessionDigest BLOB NOT NULL,
                redirectURI TEXT NOT NULL, scopes TEXT NOT NULL, nonce TEXT, codeChallenge TEXT, authTime DOUBLE NOT NULL,
                factors INTEGER NOT NULL, createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL, usedAt DOUBLE, grantId TEXT);
                CREATE INDEX openIDCode_on_accountId ON openIDCode (accountId);
                CREATE INDEX openIDCode_on_expiresAt ON openIDCode (expiresAt);
                CREATE TABLE openIDToken (digest BLOB PRIMARY KEY CHECK (length(digest) = 32), kind TEXT NOT NULL,
                grantId TEXT NOT NULL REFERENCES openIDGrant(id) ON DELETE CASCADE, scopes TEXT NOT NULL,
                createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL, usedAt DOUBLE);
                CREATE INDEX openIDToken_on_grantId ON openIDToken (grantId);
                CREATE INDEX openIDToken_on_expiresAt ON openIDToken (expiresAt);
                CREATE TABLE openIDConsent (accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE, clientId TEXT NOT NULL,
                scopes TEXT NOT NULL, grantedAt DOUBLE NOT NULL, lastUsedAt DOUBLE, PRIMARY KEY (accountId, clientId));
                CREATE TABLE openIDDevice (digest BLOB PRIMARY KEY CHECK (length(digest) = 32), userCodeDigest BLOB NOT NULL UNIQUE,
                clientId TEXT NOT NULL, scopes TEXT NOT NULL, state TEXT NOT NULL, pollInterval DOUBLE NOT NULL,
                lastPolledAt DOUBLE, accountId INTEGER REFERENCES account(id) ON DELETE CASCADE, sessionDigest BLOB,
                authTime DOUBLE, factors INTEGER, grantId TEXT, createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL);
                CREATE INDEX openIDDevice_on_accountId ON openIDDevice (accountId);
                CREATE INDEX openIDDevice_on_expiresAt ON openIDDevice (expiresAt);
                CREATE TABLE openIDPushedRequest (digest BLOB PRIMARY KEY CHECK (length(digest) = 32), clientId TEXT NOT NULL,
                parameters TEXT NOT NULL, createdAt DOUBLE NOT NULL, expiresAt DOUBLE NOT NULL, usedAt DOUBLE);
                CREATE INDEX openIDPushedRequest_on_expiresAt ON openIDPushedRequest (expiresAt);
                CREATE TABLE openIDLogoutDelivery (id INTEGER PRIMARY KEY AUTOINCREMENT, clientId TEXT NOT NULL, accountId INTEGER NOT NULL,
                sid TEXT NOT NULL, grantId TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, dueAt DOUBLE NOT NULL,
                createdAt DOUBLE NOT NULL, deliveredAt DOUBLE, abandonedAt DOUBLE);
                CREATE INDEX openIDLogoutDelivery_pending ON openIDLogoutDelivery (dueAt) WHERE deliveredAt IS NULL AND abandonedAt IS NULL;
                CREATE INDEX openIDLogoutDelivery_on_createdAt ON openIDLogoutDelivery (createdAt);
                """)
        }
    }
}
