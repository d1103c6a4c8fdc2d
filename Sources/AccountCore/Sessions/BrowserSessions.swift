// BrowserSessions.swift: several accounts signed in at once in one browser: which sessions end and which one is active.
//
// Options: `session.max_accounts` (`SessionPolicy.maxAccounts`; see the key table). A browser holds the
// active account's token (the session cookie) and the waiting accounts' tokens (the accounts cookie), in order. The
// rules, all here:
//   - sign-in: a new session becomes active. The one that was active waits when it is another account and the
//     sign-in adds an account (`keepPrevious`); otherwise it ends. The same account's older sessions end (the session
//     id changes at every sign-in). Beyond `maxAccounts`, the oldest waiting session ends.
//   - switch: a waiting account (by its handle) becomes active; the active one waits first in line.
//   - sign out: the active session ends, the first waiting account becomes active.
//   - sign out all here: every session this browser holds ends.
//   - who is signed in here: the live waiting sessions, one per account, never the active account's; dead ones are dropped.
// Each change runs in one transaction (with the session a sign-in creates) and returns a `BrowserState`: what the
// browser must now hold. Turning that into cookies is WebFront's job.
import Foundation
import Logging

/// The tokens a browser sent: the active session's and the waiting ones', in order.
public struct BrowserTokens: Sendable, Equatable {
    /// How many waiting tokens are read at most.
    public static let readLimit = 10

    public var active: String?
    public var waiting: [String]

    public init(active: String? = nil, waiting: [String] = []) {
        self.active = active.flatMap { $0.isEmpty ? nil : $0 }
        self.waiting = Array(waiting.prefix(Self.readLimit))
    }
}

/// An account this browser is signed in to: its token, its live session, and a handle safe to show in a form.
public struct BrowserAccount: Sendable {
    public let token: String
    public let session: SessionInfo

    public init(token: String, session: SessionInfo) {
        self.token = token
        self.session = session
    }

    /// The handle the sessions page shows for this session too (see `SessionManagement.handle(for:)`): names it in a
    /// form, proves nothing.
    public var handle: String { SessionManagement.handle(for: session.digest) }
}

/// What a browser must hold after a change: the active account (nil: signed out) and the waiting ones, in order.
public struct BrowserState: Sendable {
    public var active: BrowserAccount?
    public var waiting: [BrowserAccount]

    public init(active: BrowserAccount?, waiting: [BrowserAccount]) {
        self.active = active
        self.waiting = waiting
    }

    /// The waiting tokens may outlive the browser (a persistent cookie) only when every waiting session is remembered.
    public var waitingOutlivesBrowser: Bool { waiting.allSatisfy(\.session.rememberMe) }

    /// The active session has ended elsewhere (revoked, password changed, account deleted): the first waiting account
    /// becomes active, or nobody is.
    public static func activeEnded(waiting: [BrowserAccount]) -> BrowserState {
        guard let next = waiting.first else { return BrowserState(active: nil, waiting: []) }
        return BrowserState(active: next, waiting: Array(waiting.dropFirst()))
    }
}

/// The several-accounts rules of one browser.
public struct BrowserSessions: Sendable {
    let database: AppDatabase
    let sessions: Sessions
    let audit: AuditLog
    let logger: Logger

    public init(database: AppDatabase, sessions: Sessions, audit: AuditLog, logger: Logger) {
        self.database = database
        self.sessions = sessions
        self.audit = audit
        self.logger = logger
    }

    /// True when one more account may sign in in a browser where `waiting` accounts wait besides the active one.
    public func hasRoom(waiting: Int) -> Bool {
        waiting + 1 < sessions.policy.maxAccounts
    }

    /// Who waits here: the live waiting sessions, one per account, never `activeAccount`'s, in the browser's order.
    /// Read on the hot path (each lookup as `Sessions.find`, which also marks the session used); only the first
    /// `maxAccounts` tokens are looked up, all a browser is ever given, whatever a forged cookie holds.
    public func waiting(_ here: BrowserTokens, activeAccount: Int64?) throws -> [BrowserAccount] {
        var found: [BrowserAccount] = []
        for token in here.waiting.prefix(sessions.policy.maxAccounts) {
            guard let info = try sessions.find(token: token), info.accountId != activeAccount,
                  !found.contains(where: { $0.session.accountId == info.accountId }) else { continue }
            found.append(BrowserAccount(token: token, session: info))
        }
        return found
    }

    /// Makes the waiting account named `handle` the active one; the active one waits first in line. Nil when no live
    /// waiting account has that handle. Changes no session.
    public func switchTo(handle: String, here: BrowserTokens) throws -> BrowserState? {
        try database.read { tx in
            var (active, waiting) = try sessions.signedIn(here, in: tx)
            guard let index = waiting.firstIndex(where: { $0.handle == handle }) else { return nil }
            let next = waiting.remove(at: index)
            if let active { waiting.insert(active, at: 0) }
            return BrowserState(active: next, waiting: waiting)
        }
    }

    /// Applies the sign-in's rules for a grant made without the browser's tokens, in a transaction of its own.
    public func admit(_ grant: SessionGrant, here: BrowserTokens, keepPrevious: Bool) throws -> BrowserState {
        try database.write { tx in try sessions.admit(grant, here: here, keepPrevious: keepPrevious, in: tx) }
    }

    /// Ends the active session (audited as a sign-out; unknown tokens are ignored); the first waiting account becomes
    /// active, or nobody is.
    public func signOut(here: BrowserTokens, client: ClientInfo) throws -> BrowserState {
        try database.write { tx in
            let (_, waiting) = try sessions.signedIn(here, in: tx)
            if let token = here.active { try end(token, client: client, in: tx) }
            return BrowserState.activeEnded(waiting: waiting)
        }
    }

    /// Ends every live session this browser holds, each audited as a sign-out.
    public func signOutAll(here: BrowserTokens, client: ClientInfo) throws -> BrowserState {
        try database.write { tx in
            let (active, waiting) = try sessions.signedIn(here, in: tx)
            for account in waiting + (active.map { [$0] } ?? []) { try end(account.token, client: client, in: tx) }
            return BrowserState(active: nil, waiting: [])
        }
    }

    /// Ends the session of `token` and records the sign-out once (only the DELETE that ended it writes the audit row).
    private func end(_ token: String, client: ClientInfo, in tx: Transaction) throws {
        guard let digest = SecretToken(encoded: token)?.digest, let owner = try tx.sessionOwner(digest: digest),
              try sessions.revoke(digest: digest, in: tx) else { return }
        try audit.record(.signOut, accountId: owner.accountId, email: owner.email, client: client, in: tx)
    }
}

extension Sessions {
    /// Starts a session as `create` does and, when a browser's tokens are given, applies the sign-in's rules to that
    /// browser in the same transaction; the grant then says what the browser must hold (`SessionGrant.browser`).
    func create(in tx: Transaction, accountId: Int64, email: String, rememberMe: Bool, client: ClientInfo, kind: SessionKind = .browser,
                recentSignIn: Bool = true, here: BrowserTokens?, keepPrevious: Bool, factors: Int = 1) throws -> SessionGrant {
        var grant = try create(in: tx, accountId: accountId, email: email, rememberMe: rememberMe, client: client, kind: kind,
                               recentSignIn: recentSignIn, factors: factors)
        if let here { grant.browser = try admit(grant, here: here, keepPrevious: keepPrevious, in: tx) }
        return grant
    }

    /// The sign-in's rules (see the header), in the transaction that made `grant`: what the browser must now hold.
    func admit(_ grant: SessionGrant, here: BrowserTokens, keepPrevious: Bool, in tx: Transaction) throws -> BrowserState {
        var (active, waiting) = try signedIn(here, in: tx)
        let account = grant.session.accountId
        for older in waiting where older.session.accountId == account { try revoke(digest: older.session.digest, in: tx) }
        waiting.removeAll { $0.session.accountId == account }
        if !keepPrevious, let token = here.active.flatMap(SecretToken.init(encoded:)) {
            try revoke(digest: token.digest, in: tx)
            active = nil
        }
        if let previous = active {
            if previous.session.accountId == account {
                try revoke(digest: previous.session.digest, in: tx)
            } else {
                waiting.insert(previous, at: 0)
            }
        }
        while waiting.count >= policy.maxAccounts, let oldest = waiting.popLast() {
            try revoke(digest: oldest.session.digest, in: tx)
        }
        return BrowserState(active: BrowserAccount(token: grant.token.encoded, session: grant.session), waiting: waiting)
    }

    /// The browser's live sessions as this transaction sees them: the active one, and the waiting ones (one per
    /// account, not the active account's).
    func signedIn(_ here: BrowserTokens, in tx: Transaction) throws -> (active: BrowserAccount?, waiting: [BrowserAccount]) {
        let now = clock.now()
        func live(_ token: String) throws -> BrowserAccount? {
            guard let digest = SecretToken(encoded: token)?.digest, let info = try tx.browserSession(digest: digest),
                  isLive(info, at: now) else { return nil }
            return BrowserAccount(token: token, session: info)
        }
        let active = try here.active.flatMap(live)
        var waiting: [BrowserAccount] = []
        for token in here.waiting.prefix(policy.maxAccounts) {   // never more than a browser is given: each a lookup
            guard let account = try live(token), account.session.accountId != active?.session.accountId,
                  !waiting.contains(where: { $0.session.accountId == account.session.accountId }) else { continue }
            waiting.append(account)
        }
        return (active, waiting)
    }
}
