// Usernames.swift: every account's username (what the gate sends apps as Remote-User): chosen, or made from the address.
//
// Options:
//   mode   `identity.username` (Username.Mode): `off` makes every username from the address; `optional` lets sign-up
//          and settings choose one (empty: made); `required` makes sign-up ask for one
// The rule and the name made from an address are AccountRules' `Username`. Unique without case: the database's
// index on `lower(username)` settles two accounts racing for one name (the loser's savepoint is undone and it takes
// the next `-N`, or hears `taken` when it chose the name). A made name is kept when the address changes later.
// An account made by a host older than v15-usernames has none until `ensure` (its first session lookup) or
// `fillMissing` (run by `AppDatabase.migrate`) gives it one.
import AccountRules
import Foundation
import Logging

/// Choosing, making and changing usernames.
public struct Usernames: Sendable {
    let database: AppDatabase
    public var mode: Username.Mode = .off
    var audit: AuditLog?
    var logger: Logger?

    public init(database: AppDatabase, mode: Username.Mode = .off) {
        self.database = database
        self.mode = mode
    }

    init(database: AppDatabase, mode: Username.Mode, audit: AuditLog, logger: Logger) {
        self.init(database: database, mode: mode)
        self.audit = audit
        self.logger = logger
    }

    /// How many candidates one probe of the index looks at.
    static let probeSize = 20
    /// After this many candidates a made name gives up (a bug or an attack, never a real clash count).
    static let maxCandidates = 10_000

    /// Gives `accountId` the first free name made from `address` (`ann`, `ann-2` …; reserved names skipped), in the
    /// caller's transaction, unless it has one; returns the account's username.
    @discardableResult
    static func assignMade(from address: String, to accountId: Int64, in tx: Transaction) throws -> String {
        let base = Username.base(from: address)
        var n = 1
        while n <= maxCandidates {
            let batch = (n..<(n + probeSize)).map { Username.candidate(base, $0) }
            let taken = try tx.takenUsernames(batch)
            for name in batch where !taken.contains(Username.key(name)) && !Username.reserved.contains(Username.key(name)) {
                if try tx.setUsername(name, of: accountId, onlyIfMissing: true) { return name }
                // Someone else took it since the probe, or the account got one meanwhile.
                if let existing = try tx.username(of: accountId) { return existing }
            }
            n += probeSize
        }
        throw StorageError.failed("no free username made from \(base)")
    }

    /// Sets a chosen `name` on a new account in the caller's transaction (sign-up), or makes one from `address` when
    /// `name` is empty. The name must follow the rule already.
    ///
    /// - Throws: `AccountError.invalid` with `taken` on `username` when another account holds it.
    static func assign(chosen name: String, orMadeFrom address: String, to accountId: Int64, in tx: Transaction) throws {
        guard !name.isEmpty else { return _ = try assignMade(from: address, to: accountId, in: tx) }
        guard try tx.setUsername(name, of: accountId) else { throw AccountError.invalid(takenErrors()) }
    }

    /// `taken` on the username field.
    static func takenErrors() -> ValidationErrors {
        var errors = ValidationErrors()
        errors.add(FieldError(key: "taken"), to: "username", displayName: "Username")
        return errors
    }

    /// The account's username, made from `address` first when it has none (an account an older host created).
    public func ensure(accountId: Int64, address: String) throws -> String {
        // Read first: another host (or request) may have given it since this lookup was cached; only a write gives one.
        if let name = try database.read({ tx in try tx.username(of: accountId) }) { return name }
        return try database.write { tx in
            if let name = try tx.username(of: accountId) { return name }
            return try Self.assignMade(from: address, to: accountId, in: tx)
        }
    }

    /// The account's username; nil when the account is gone.
    public func username(of accountId: Int64) throws -> String? {
        if let name = try database.read({ tx in try tx.username(of: accountId) }) { return name }
        guard let address = try database.read({ tx in try tx.primaryAddress(of: accountId) }) else { return nil }
        return try ensure(accountId: accountId, address: address)
    }

    /// Gives every account without a username one made from its primary address, in batches; returns how many.
    @discardableResult
    public func fillMissing(batch: Int = 500) throws -> Int {
        var filled = 0
        while true {
            let done = try database.write { tx -> Int in
                let accounts = try tx.accountsWithoutUsername(limit: batch)
                for account in accounts { try Self.assignMade(from: account.address, to: account.id, in: tx) }
                return accounts.count
            }
            filled += done
            if done < batch { return filled }
        }
    }

    /// Changes the account's username to `name` (the operator's `user username --set`; settings and the JSON API change
    /// it with the rest of the profile, Profile.update); the same name in another case is a change too.
    ///
    /// - Throws: `AccountError.refused("username_fixed")` when `mode` is `off`; `AccountError.invalid` on `username`
    ///   when the name breaks the rule or another account holds it; `AccountError.notFound` when the account is gone.
    /// `byOperator` (`frontdoor user username --set`): whatever `mode` says; the rule still holds.
    public func change(accountId: Int64, to name: String, client: ClientInfo, byOperator: Bool = false) throws {
        let name = try checked(name, byOperator: byOperator)
        let changed = try database.write { tx -> Bool in
            guard try tx.accountExists(accountId) else { throw AccountError.notFound }
            return try set(name, of: accountId, client: client, in: tx)
        }
        if changed { logger?.info("username changed", metadata: ["account": "\(accountId)"]) }
    }

    /// `name` trimmed, once it may be chosen: the mode allows a choice (or the operator chooses) and it follows the rule.
    ///
    /// - Throws: `AccountError.refused("username_fixed")`, or `AccountError.invalid` on `username`.
    func checked(_ name: String, byOperator: Bool = false) throws -> String {
        guard mode != .off || byOperator else { throw AccountError.refused("username_fixed") }
        let name = name.trimmingWhitespace()
        if let problem = Username.problem(name) {
            var errors = ValidationErrors()
            errors.add(problem, to: "username", displayName: "Username")
            throw AccountError.invalid(errors)
        }
        return name
    }

    /// Sets the checked `name` on the account in the caller's transaction and audits the change; false when it had that
    /// name already.
    ///
    /// - Throws: `AccountError.invalid` with `taken` when another account holds it.
    func set(_ name: String, of accountId: Int64, client: ClientInfo, in tx: Transaction) throws -> Bool {
        let before = try tx.username(of: accountId)
        guard before != name else { return false }
        guard try tx.setUsername(name, of: accountId) else { throw AccountError.invalid(Self.takenErrors()) }
        try audit?.record(.usernameChanged, accountId: accountId, email: try tx.primaryAddress(of: accountId), client: client,
                          detail: "\(before ?? "") → \(name)", in: tx)
        return true
    }
}
