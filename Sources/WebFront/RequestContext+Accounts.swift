// RequestContext+Accounts.swift: the two cookies of several accounts signed in at once in one browser.
//
// Options: `session.max_accounts` (see the key table), given to AccountCore with the tokens. Which sessions end and
// which account is active is AccountCore's `BrowserSessions`; this file only reads the tokens from the cookies and
// writes back what it says. The active account's token is in the session cookie, the only one the gate and BrowserID
// read (so they always use the active account and their hot path is unchanged); the waiting ones' tokens are in the
// `frontdoor_accounts` cookie (HttpOnly, SameSite=Lax, host-bound: `__Host-frontdoor_accounts` with Path=/ over https,
// see CookieJar, so a sibling subdomain cannot plant tokens of its own; one sent twice is read as none), separated by
// dots, kept across a browser restart only when `BrowserState.waitingOutlivesBrowser`.
import AccountCore

/// An account this browser is signed in to (AccountCore's `BrowserAccount`: token, live session, handle).
public typealias SignedInAccount = BrowserAccount

extension RequestContext {
    /// Name of the cookie holding the waiting (not active) sessions' tokens.
    public static let accountsCookie = "frontdoor_accounts"

    /// The tokens this browser sent (active and waiting) with the number of accounts it may hold: what every
    /// several-accounts operation of AccountCore takes.
    public var browserTokens: BrowserTokens {
        BrowserTokens(active: sessionToken, waiting: (cookies.hostBoundValue(Self.accountsCookie) ?? "").split(separator: ".").map(String.init))
    }

    /// The browser's other live sessions, one per account, not the active account's; dead ones are dropped from the cookie.
    public func otherAccounts() throws -> [SignedInAccount] {
        if let loadedOthers { return loadedOthers }
        let here = browserTokens
        let found = try core.browserSessions.waiting(here, activeAccount: session()?.accountId)
        if found.count != here.waiting.count { storeOthers(found) } else { loadedOthers = found }
        return found
    }

    /// Sets the cookies a sign-in's grant asks for (`SessionGrant.browser`: AccountCore applied the several-accounts
    /// rules in the grant's transaction). A grant made without the browser's tokens gets them applied now.
    public func startSession(_ grant: SessionGrant, keepPrevious: Bool = true) throws {
        hold(try grant.browser ?? core.browserSessions.admit(grant, here: browserTokens, keepPrevious: keepPrevious))
    }

    /// The active session has ended (revoked, account deleted): the next waiting account becomes active, or the
    /// browser is signed out. Returns the account now active, if any.
    @discardableResult
    public func clearSession() -> SessionInfo? {
        hold(BrowserState.activeEnded(waiting: (try? otherAccounts()) ?? []))
    }

    /// Signs the active account out (its session ends); the next waiting account becomes active. Returns it, if any.
    @discardableResult
    public func signOutActive() throws -> SessionInfo? {
        hold(try core.browserSessions.signOut(here: browserTokens, client: client))
    }

    /// Makes the waiting account whose handle is `handle` the active one; the active one waits. False when unknown.
    public func switchAccount(to handle: String) throws -> Bool {
        guard let state = try core.browserSessions.switchTo(handle: handle, here: browserTokens) else { return false }
        hold(state)
        return true
    }

    /// Signs this browser out of every account (each session ended on the server).
    public func signOutEverywhereHere() throws {
        hold(try core.browserSessions.signOutAll(here: browserTokens, client: client))
    }

    /// True when one more account may sign in here.
    public func hasRoomForAnotherAccount() throws -> Bool {
        core.browserSessions.hasRoom(waiting: try otherAccounts().count)
    }

    /// Writes both cookies as `state` says; returns the session now active.
    @discardableResult
    func hold(_ state: BrowserState) -> SessionInfo? {
        activate(token: state.active?.token ?? "", session: state.active?.session)
        storeOthers(state.waiting)
        return state.active?.session
    }

    /// Writes the waiting sessions' cookie (removed when none wait).
    func storeOthers(_ others: [SignedInAccount]) {
        loadedOthers = others
        guard !others.isEmpty else {
            if cookies[cookies.hostBound(Self.accountsCookie)] != nil { cookies.setHostBound(Self.accountsCookie, "", maxAge: 0) }
            return
        }
        let outlivesBrowser = BrowserState(active: nil, waiting: others).waitingOutlivesBrowser
        cookies.setHostBound(Self.accountsCookie, others.map(\.token).joined(separator: "."),
                             maxAge: outlivesBrowser ? Int(site.configuration.session.rememberLifetime) : nil)
    }
}
