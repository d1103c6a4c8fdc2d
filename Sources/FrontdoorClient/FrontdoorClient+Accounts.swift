// FrontdoorClient+Accounts.swift: several accounts on one device (BMCredentials' keyed credentials).
//
// Options: none beyond the store. Every account signed in here is kept under "account:<lowercased email>" (url =
// this server, extra["id"] = its id), one entry per account id; the active one is also the default credentials
// (`Credentials.defaultKey`), which every authenticated call uses, so the single-account API (`credentials`,
// `currentUser`, `signOut()`, a store's `setDefaultCredentials`) works as before. Signing in to another account makes
// it the active one and keeps the others.
//   accounts()          the accounts kept for this server, sorted by address (hand-set default credentials count)
//   switchAccount(to:)  makes a kept account the active one (local only; the one active before stays kept)
//   signOut()           the active account: its token ended on the server, its credentials forgotten; none active after
//   signOut(email:)     that account, active or not
//   signOutAll()        every kept account of this server, each token ended on the server (residences stay)
// Signing out forgets the credentials even when the server call fails (the error is thrown after); signOutAll tries
// every account and throws the first error. Addresses are compared case-insensitively. The key does not name the
// server: give each server its own store (as for residences).
import Foundation

extension FrontdoorClient {
    /// The accounts signed in on this device for this server (id, address, token), sorted by address.
    public func accounts() throws -> [User] {
        try keptAccounts().map(Self.user(from:))
    }

    /// Makes the kept account of `email` the active one, whose credentials the calls use from now on, and returns it.
    /// `.notSignedIn` when no account of that address is kept for this server. Nothing is sent.
    @discardableResult
    public func switchAccount(to email: String) throws -> User {
        guard let target = try keptAccounts().first(where: { Self.normalized($0.username) == Self.normalized(email) }) else {
            throw FrontdoorClientError.notSignedIn
        }
        if let active = credentials { try store.set(active, forKey: Self.accountKey(active.username)) }
        try store.set(target, forKey: Self.accountKey(target.username))
        try store.setDefaultCredentials(target)
        log(.everything, "active account: \(target.username)")
        return Self.user(from: target)
    }

    /// Ends the token of the kept account of `email` on the server and forgets it (and, when it was the active one,
    /// leaves none active). `.notSignedIn` when no such account is kept.
    public func signOut(email: String) async throws {
        guard let account = try keptAccounts().first(where: { Self.normalized($0.username) == Self.normalized(email) }) else {
            throw FrontdoorClientError.notSignedIn
        }
        try await signOut(account)
    }

    /// Signs every kept account of this server out, each token ended on the server; all are forgotten even when a
    /// server call fails (the first failure is thrown once every account was tried).
    public func signOutAll() async throws {
        var failure: Error?
        for account in try keptAccounts() {
            do {
                try await signOut(account)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    // MARK: - Plumbing

    static let accountPrefix = "account:"

    static func accountKey(_ email: String) -> String { accountPrefix + normalized(email) }

    static func user(from credentials: Credentials) -> User {
        User(id: credentials.extra["id"].flatMap { Int64($0) }, email: credentials.username, authenticationToken: credentials.secret)
    }

    /// Ends `account`'s token on the server, then forgets it, whether the server call worked or not.
    func signOut(_ account: Credentials) async throws {
        defer {
            try? forget(account)
            log(.everything, "signed out: \(account.username)")
        }
        _ = try await send("DELETE", resource + "/sign_out", body: extraBody(.signOut), authenticated: true, as: account)
    }

    /// Makes `credentials` the active account and keeps them among the accounts, replacing what was kept for the same
    /// account (same id, or same token: an address that changed); the account active before stays kept.
    func activate(_ credentials: Credentials) throws {
        let key = Self.accountKey(credentials.username)
        let id = credentials.extra["id"]
        // Default credentials set by hand (or by an older version) are another account: kept, not overwritten.
        if let previous = self.credentials, previous.secret != credentials.secret, id == nil || previous.extra["id"] != id,
           try store.credentials(forKey: Self.accountKey(previous.username)) == nil {
            try store.set(previous, forKey: Self.accountKey(previous.username))
        }
        for other in try store.keys() where other.hasPrefix(Self.accountPrefix) && other != key {
            guard let kept = try store.credentials(forKey: other), kept.url == configuration.serverURL else { continue }
            if kept.secret == credentials.secret || (id != nil && kept.extra["id"] == id) { try store.remove(forKey: other) }
        }
        try store.set(credentials, forKey: key)
        try store.setDefaultCredentials(credentials)
    }

    /// Forgets `account`: its kept entry, and the default credentials when they are the same token.
    func forget(_ account: Credentials) throws {
        let key = Self.accountKey(account.username)
        if try store.credentials(forKey: key)?.secret == account.secret { try store.remove(forKey: key) }
        if try store.defaultCredentials()?.secret == account.secret { try store.removeDefaultCredentials() }
    }

    /// The kept accounts of this server with the active one (fresher, and counted even when set by hand), by address.
    func keptAccounts() throws -> [Credentials] {
        var found: [String: Credentials] = [:]
        for key in try store.keys() where key.hasPrefix(Self.accountPrefix) {
            guard let kept = try store.credentials(forKey: key), kept.url == configuration.serverURL else { continue }
            found[Self.normalized(kept.username)] = kept
        }
        if let active = credentials { found[Self.normalized(active.username)] = active }
        return found.values.sorted { Self.normalized($0.username) < Self.normalized($1.username) }
    }
}
