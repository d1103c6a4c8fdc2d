// SQLiteMigrations.swift: the SQLite schema, one registered migration per shipped change. Never edit a shipped migration.
import GRDB

extension SQLiteBackend {
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
        migrator.registerMigration("v2-tokens-mail") { db in
            try db.create(table: "accountToken") { t in
                t.primaryKey("digest", .blob).check { length($0) == 32 }
                t.column("purpose", .text).notNull()
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.belongsTo("emailAddress", onDelete: .cascade)
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull()
                t.column("usedAt", .double)
            }
            try db.create(table: "mailQueue") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("sender", .text).notNull()
                t.column("recipient", .text).notNull()
                t.column("recipientKey", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("message", .text).notNull()
                t.column("messageId", .text).notNull().unique()
                t.column("createdAt", .double).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("nextAttemptAt", .double).notNull()
                t.column("lastError", .text)
                t.column("sentAt", .double)
            }
            try db.create(index: "mailQueue_due", on: "mailQueue", columns: ["sentAt", "nextAttemptAt"])
            try db.create(index: "mailQueue_recipient", on: "mailQueue", columns: ["recipientKey", "kind", "createdAt"])
        }
        migrator.registerMigration("v3-signing-keys") { db in
            try db.create(table: "signingKey") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("purpose", .text).notNull()
                t.column("privateKey", .text).notNull()
                t.column("publicKey", .text).notNull()
                t.column("createdAt", .double).notNull()
                t.column("retiredAt", .double)
            }
            try db.create(index: "signingKey_oneCurrent", on: "signingKey", columns: ["purpose"],
                          unique: true, condition: Column("retiredAt") == nil)
        }
        migrator.registerMigration("v4-lockout-audit-invites") { db in
            // Lockout: the account's lock, failed sign-ins (per account and per client address), blocked addresses.
            try db.alter(table: "account") { t in t.add(column: "lockedUntil", .double) }
            try db.create(table: "signInFailure") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade)   // NULL: the address typed has no account
                t.column("remoteAddress", .text).notNull()
                t.column("createdAt", .double).notNull()
            }
            try db.create(index: "signInFailure_account", on: "signInFailure", columns: ["accountId", "createdAt"])
            try db.create(index: "signInFailure_address", on: "signInFailure", columns: ["remoteAddress", "createdAt"])
            try db.create(table: "addressBlock") { t in
                t.primaryKey("remoteAddress", .text)
                t.column("blockedUntil", .double).notNull()
            }
            // Audit: no foreign key, so the trail outlives a deleted account.
            try db.create(table: "audit") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("createdAt", .double).notNull().indexed()
                t.column("event", .text).notNull()
                t.column("accountId", .integer)
                t.column("email", .text)
                t.column("remoteAddress", .text).notNull()
                t.column("userAgent", .text).notNull()
                t.column("detail", .text).notNull().defaults(to: "")
            }
            try db.create(index: "audit_account", on: "audit", columns: ["accountId", "createdAt"])
            try db.create(index: "audit_event", on: "audit", columns: ["event", "createdAt"])
            // Invitations: only the token's digest is stored; one address per invitation.
            try db.create(table: "invite") { t in
                t.primaryKey("digest", .blob).check { length($0) == 32 }
                t.column("address", .text).notNull()
                t.column("normalizedAddress", .text).notNull().indexed()
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull()
                t.column("usedAt", .double)
            }
        }
        migrator.registerMigration("v5-session-idle-index") { db in
            // Purging idle sessions at every sign-in scanned the whole table (1 s at a million rows): index them.
            try db.create(index: "session_idle", on: "session", columns: ["lastSeenAt"], condition: !Column("rememberMe"))
        }
        migrator.registerMigration("v6-self-service") { db in
            // Profile: a display name, and the operator's declared fields (one row per field; `uniqueValue` is set only
            // for fields declared unique, so the index refuses a second account with the same value even under a race).
            try db.alter(table: "account") { t in t.add(column: "displayName", .text).notNull().defaults(to: "") }
            try db.create(table: "profileValue") { t in
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("field", .text).notNull()
                t.column("value", .text).notNull()
                t.column("uniqueValue", .text)
                t.primaryKey(["accountId", "field"])
            }
            try db.create(index: "profileValue_unique", on: "profileValue", columns: ["field", "uniqueValue"],
                          unique: true, condition: Column("uniqueValue") != nil)
            // Re-authentication: when the password was last entered for this session (0: never, so asked again).
            try db.alter(table: "session") { t in t.add(column: "authenticatedAt", .double).notNull().defaults(to: 0) }
            try db.create(index: "session_account", on: "session", columns: ["accountId"])
            // Addresses: only a verified address may become primary, and a primary address is never deleted on its own
            // (only with its account). The checks in EmailAddresses come first; these hold under any race or bug.
            try db.execute(sql: """
                CREATE TRIGGER emailAddress_primaryVerified BEFORE UPDATE OF isPrimary ON emailAddress
                WHEN NEW.isPrimary AND NOT OLD.isPrimary AND NEW.verifiedAt IS NULL
                BEGIN SELECT RAISE(ABORT, 'a primary address must be verified'); END;
                CREATE TRIGGER emailAddress_keepPrimary BEFORE DELETE ON emailAddress
                WHEN OLD.isPrimary AND EXISTS (SELECT 1 FROM account WHERE id = OLD.accountId)
                BEGIN SELECT RAISE(ABORT, 'the primary address cannot be removed'); END;
                """)
        }
        migrator.registerMigration("v7-social") { db in
            // Social sign-in. An account made through a provider has no password: `account.passwordHash` is ''.
            // One identity per (provider, subject) in all, and at most one per provider for an account. The provider's
            // tokens are sealed with AES-GCM (TokenVault), never stored in clear.
            try db.create(table: "socialIdentity") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("provider", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("email", .text)
                t.column("displayName", .text).notNull().defaults(to: "")
                t.column("sealedTokens", .blob)
                t.column("tokenExpiresAt", .double)
                t.column("createdAt", .double).notNull()
                t.column("lastUsedAt", .double)
                t.uniqueKey(["provider", "subject"])
                t.uniqueKey(["accountId", "provider"])
            }
            // A started authorization-code flow: the digest of its `state`, bound to the browser (digest of its binding
            // cookie), single use, short-lived. PKCE verifier and nonce are derived from state and binding, not stored.
            try db.create(table: "socialFlow") { t in
                t.primaryKey("digest", .blob).check { length($0) == 32 }
                t.column("provider", .text).notNull()
                t.column("purpose", .text).notNull()
                t.belongsTo("account", onDelete: .cascade)
                t.column("bindingDigest", .blob).notNull()
                t.column("returnTo", .text).notNull().defaults(to: "")
                t.column("sealedInvite", .blob)
                t.column("rememberMe", .boolean).notNull().defaults(to: false)
                t.column("pendingDigest", .blob)
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
                t.column("usedAt", .double)
            }
            // An identity the provider vouched for that needs one more step from the person: an address to verify
            // (none or an unverified one given), or signing in to the existing account that holds its address.
            try db.create(table: "socialPending") { t in
                t.primaryKey("digest", .blob).check { length($0) == 32 }
                t.column("bindingDigest", .blob).notNull()
                t.column("provider", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("email", .text)
                t.column("emailVerified", .boolean).notNull().defaults(to: false)
                t.column("displayName", .text).notNull().defaults(to: "")
                t.column("sealedTokens", .blob)
                t.column("tokenExpiresAt", .double)
                t.belongsTo("linkAccount", inTable: "account", onDelete: .cascade)
                t.column("returnTo", .text).notNull().defaults(to: "")
                t.column("sealedInvite", .blob)
                t.column("rememberMe", .boolean).notNull().defaults(to: false)
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
                t.column("usedAt", .double)
            }
        }
        migrator.registerMigration("v8-native") { db in
            // Native apps. An API token is a session of kind 'api': it is listed, revoked, ended by a password
            // change or reset, and deleted with its account like any browser session, but only the JSON API accepts it
            // (X-User-Email + X-User-Token) and only browser sessions come from the cookie.
            try db.alter(table: "session") { t in t.add(column: "kind", .text).notNull().defaults(to: "browser") }
            // An address added through the JSON API's profile update (devise's reconfirmable email): becomes the primary
            // address when it is confirmed.
            try db.alter(table: "emailAddress") { t in t.add(column: "makePrimaryOnVerify", .boolean).notNull().defaults(to: false) }
            // Email residences (IIResidenceStore): a device asks for an address, the mailed link approves it, and the
            // device collects an API token once with its secret. Only digests of the secret and of the link's token.
            try db.create(table: "residence") { t in
                t.primaryKey("id", .text)
                t.column("address", .text).notNull()
                t.column("normalizedAddress", .text).notNull().indexed()
                t.column("secretDigest", .blob).notNull()
                t.column("linkDigest", .blob).notNull().unique()
                t.column("state", .text).notNull()          // pending | verified | refused | used
                t.belongsTo("account", onDelete: .cascade)   // set when approved
                t.column("userAgent", .text).notNull().defaults(to: "")
                t.column("remoteAddress", .text).notNull().defaults(to: "")
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
                t.column("verifiedAt", .double)
                t.column("usedAt", .double)
            }
        }
        migrator.registerMigration("v9-language") { db in
            // The account's language: pages and mail use it before the browser's. NULL: follow the browser.
            try db.alter(table: "account") { t in t.add(column: "language", .text) }
        }
        migrator.registerMigration("v10-address-group") { db in
            // What the sign-up limit counts by: an IPv6 client's /64, not each of its addresses. Rows before
            // this step count by their own address.
            try db.alter(table: "audit") { t in t.add(column: "addressGroup", .text).notNull().defaults(to: "") }
            try db.execute(sql: "UPDATE audit SET addressGroup = remoteAddress")
        }
        migrator.registerMigration("v11-retention") { db in
            // Old audit rows are pruned (Retention), so what was read from all of them is kept beside them,
            // kept up by triggers on every insert whatever the code path: each event's total, for /metrics (counters
            // that never fall when rows go, read by key instead of counting the table on every scrape) ...
            try db.create(table: "auditCount", options: .withoutRowID) { t in
                t.primaryKey("event", .text)
                t.column("total", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO auditCount (event, total) SELECT event, COUNT(*) FROM audit GROUP BY event")
            // ... and each account's last sign-in, for `frontdoor user list`.
            try db.alter(table: "account") { t in t.add(column: "lastSignInAt", .double) }
            try db.execute(sql: """
                UPDATE account SET lastSignInAt = (SELECT MAX(createdAt) FROM audit WHERE accountId = account.id AND event = 'sign_in');
                CREATE TRIGGER audit_count AFTER INSERT ON audit
                BEGIN
                    INSERT INTO auditCount (event, total) VALUES (NEW.event, 1) ON CONFLICT (event) DO UPDATE SET total = total + 1;
                END;
                CREATE TRIGGER audit_lastSignIn AFTER INSERT ON audit WHEN NEW.event = 'sign_in' AND NEW.accountId IS NOT NULL
                BEGIN
                    UPDATE account SET lastSignInAt = NEW.createdAt WHERE id = NEW.accountId;
                END;
                """)
        }
        migrator.registerMigration("v12-session-notifications") { _ in
            // PostgreSQL's step tells other hosts when sessions change (PostgresMigrations.swift); one SQLite file has
            // no other host to tell, and its lookup reads the file itself. Empty here, so both histories stay one.
        }
        migrator.registerMigration("v13-address-proof") { db in
            // An identity linked while its account had no verified address (a provider that gives none, and an address
            // typed on auth/email) keeps the digest of the browser binding it was linked in, until an address of the
            // account is proven (IdentityProof.swift). Identities linked before this step on accounts still without a
            // verified address get an empty digest, which no browser matches: the first proof unlinks them.
            // (PostgreSQL's step also has its session-notify trigger fire on `verifiedAt`; SQLite has no cache to tell.)
            // What was never confirmed expires (Retention+Unconfirmed): its batches start from this index.
            try db.create(index: "emailAddress_unverified", on: "emailAddress", columns: ["createdAt"], condition: Column("verifiedAt") == nil)
            try db.alter(table: "socialIdentity") { t in t.add(column: "unprovenBinding", .blob) }
            try db.execute(sql: """
                UPDATE socialIdentity SET unprovenBinding = X'' WHERE NOT EXISTS (
                    SELECT 1 FROM emailAddress e WHERE e.accountId = socialIdentity.accountId AND e.verifiedAt IS NOT NULL)
                """)
        }
        migrator.registerMigration("v14-expiry-indexes") { db in
            // Ended rows are deleted by the pruner in batches, never in a request (Retention+Expiry): an index serves
            // each batch (session, residence and social tables had theirs).
            try db.create(index: "signInFailure_createdAt", on: "signInFailure", columns: ["createdAt"])
            try db.create(index: "addressBlock_blockedUntil", on: "addressBlock", columns: ["blockedUntil"])
        }
        migrator.registerMigration("v14-quiet-purges") { _ in
            // PostgreSQL's step stops the pruner's session deletions from telling other hosts; SQLite has none to tell.
        }
        migrator.registerMigration("v14-audit-totals-at-prune") { db in
            // An event's total is no longer counted on every insert: `auditCount` holds what was pruned, added as rows
            // are deleted, and a total is that plus the rows still there (AuditStore.auditTotals).
            try db.execute(sql: """
                DROP TRIGGER audit_count;
                CREATE TRIGGER audit_pruned AFTER DELETE ON audit
                BEGIN
                    INSERT INTO auditCount (event, total) VALUES (OLD.event, 1) ON CONFLICT (event) DO UPDATE SET total = total + 1;
                END;
                UPDATE auditCount SET total = total - (SELECT COUNT(*) FROM audit WHERE audit.event = auditCount.event);
                """)
        }
        migrator.registerMigration("v14-one-session-account-index") { db in
            // `session(accountId)` was indexed twice (v1's index_session_on_accountId and v6's session_account).
            try db.drop(index: "session_account")
        }
        registerIdentitySteps(&migrator)
        registerSecondFactorSteps(&migrator)
        registerOneTimeCodeSteps(&migrator)
        registerPasskeySteps(&migrator)
        registerOpenIDSteps(&migrator)
        registerAdminSteps(&migrator)
        return migrator
    }
}
