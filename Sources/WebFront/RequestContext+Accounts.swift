// RequestContext+Accounts.swift: several accounts signed in at once in one browser, and which one is active.
//
// Options: `session.max_accounts` (default 5). Each account has its own session. The active one's token is in the
// session cookie, the only one the gate and BrowserID read (so they always use the active account and their hot path
// is unchanged); the others' tokens wait in the `frontdoor_accounts` cookie (HttpOnly, SameSite=Lax, under the base
// path), separated by dots. Switching swaps a waiting token with the active one. The waiting cookie outlives the
// browser only when every session in it is remembered, so a "not remembered" session never survives a restart there.
import AccountCore

/// An account this browser is signed in to: its cookie token, its live session, and a handle safe to show in a form.
public struct SignedInAccount: Sendable {
    public let token: String
    public let session: SessionInfo
    /// The handle the sessions page shows for this session too (see `SessionManagement.handle(for:)`): names it in the
    /// switcher's forms, proves nothing.
    public var handle: String { SessionManagement.handle(for: session.digest) }
}

extension RequestContext {
    /// Name of the cookie holding the waiting (not active) sessions' tokens.
    public static let accountsCookie = "frontdoor_accounts"

    /// The browser's other live sessions, one per account, not the active account's; dead ones are dropped from the cookie.
    public func otherAccounts() throws -> [SignedInAccount] {
        if let loadedOthers { return loadedOthers }
        let tokens = (cookies[Self.accountsCookie] ?? "").split(separator: ".").prefix(10).map(String.init)
        let active = try session()
        var found: [SignedInAccount] = []
        for token in tokens {
            guard let info = try site.services.sessions.find(token: token), info.accountId != active?.accountId,
                  !found.contains(where: { $0.session.accountId == info.accountId }) else { continue }
            found.append(SignedInAccount(token: token, session: info))
        }
        if found.count != tokens.count { storeOthers(found) } else { loadedOthers = found }
        return found
    }

    /// Starts `grant`'s session as the active one. The account that was active stays signed in, waiting, when
    /// `keepPrevious` and it is another account (signing in to another account); the same account's older session
    /// ends (the session id changes at every sign-in).
    public func startSession(_ grant: SessionGrant, keepPrevious: Bool = true) throws {
        let previous = try session()
        var others = try otherAccounts()
        let account = grant.session.accountId
        for older in others where older.session.accountId == account { try site.services.sessions.revoke(token: older.token) }
        others.removeAll { $0.session.accountId == account }
        if let previous, let token = sessionToken {
            if previous.accountId == account || !keepPrevious {
                if previous.accountId == account { try site.services.sessions.revoke(token: token) }
            } else {
                others.insert(SignedInAccount(token: token, session: previous), at: 0)
            }
        }
        while others.count >= site.configuration.session.maxAccounts, let oldest = others.popLast() {
            try site.services.sessions.revoke(token: oldest.token)
        }
        activate(token: grant.token.encoded, session: grant.session)
        storeOthers(others)
    }

    /// The active session has ended (signed out, revoked, account deleted): the next waiting account becomes active,
    /// or the browser is signed out. Returns the account now active, if any.
    @discardableResult
    public func clearSession() -> SessionInfo? {
        var others = (try? otherAccounts()) ?? []
        guard !others.isEmpty else {
            activate(token: "", session: nil)
            return nil
        }
        let next = others.removeFirst()
        activate(token: next.token, session: next.session)
        storeOthers(others)
        return next.session
    }

    /// Makes the waiting account whose handle is `handle` the active one; the active one waits. False when unknown.
    public func switchAccount(to handle: String) throws -> Bool {
        var others = try otherAccounts()
        guard let index = others.firstIndex(where: { $0.handle == handle }) else { return false }
        let next = others.remove(at: index)
        if let current = try session(), let token = sessionToken { others.insert(SignedInAccount(token: token, session: current), at: 0) }
        activate(token: next.token, session: next.session)
        storeOthers(others)
        return true
    }

    /// Signs this browser out of every account (each session ended on the server).
    public func signOutEverywhereHere() throws {
        for other in try otherAccounts() { try site.services.authentication.signOut(token: other.token, client: client) }
        if try session() != nil, let token = sessionToken { try site.services.authentication.signOut(token: token, client: client) }
        activate(token: "", session: nil)
        storeOthers([])
    }

    /// True when one more account may sign in here.
    public func hasRoomForAnotherAccount() throws -> Bool {
        try otherAccounts().count + 1 < site.configuration.session.maxAccounts
    }

    /// Writes the waiting sessions' cookie (removed when none wait).
    func storeOthers(_ others: [SignedInAccount]) {
        loadedOthers = others
        guard !others.isEmpty else {
            if cookies[Self.accountsCookie] != nil { setCookie(Self.accountsCookie, "", maxAge: 0) }
            return
        }
        let remembered = others.allSatisfy(\.session.rememberMe)
        setCookie(Self.accountsCookie, others.map(\.token).joined(separator: "."),
                  maxAge: remembered ? Int(site.configuration.session.rememberLifetime) : nil)
    }
}
