// Groups.swift: named groups of accounts, made and filled by the operator (`frontdoor group …`, `frontdoor user
// groups …`), which the gate's `group:NAME` rule admits and its `Remote-Groups` header names.
//
// Options: none. A name follows GroupName (AccountRules); names compare without case and are shown as first
// written. Every change is audited in its own transaction with the caller's client: `group_created`,
// `group_deleted`, and one `group_member_added` / `group_member_removed` row per account (so `audit list --account`
// says why a person gained or lost a location). A group is never made by adding someone to it (a typo would make a
// new group): it must exist. A group that still has members is removed only when asked to (`force`): removing it
// shuts every member out of its locations at once, on every host, and a mistyped name should not do that.
// A membership change reaches the gate like a revocation: this host's session cache forgets the account when the
// transaction ends, other hosts hear it from the database (GroupStore.swift).
import AccountRules
import Foundation
import Logging

/// What the operator cannot do with groups, worded for the terminal.
public enum GroupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No group has this name (in any case).
    case noGroup(String)
    /// A group with this name (in some case) exists.
    case exists(String)
    /// The group still has members and `force` was not given.
    case hasMembers(String, count: Int)

    public var description: String {
        switch self {
        case .noGroup(let name): "no group \(name) (frontdoor group add \(name) makes it)"
        case .exists(let name): "group \(name) exists already (names compare without case)"
        case .hasMembers(let name, let count):
            "group \(name) has \(count) member(s), who would lose every location that admits group:\(name) at once; add --force to remove it and its memberships"
        }
    }
}

/// Group operations for the operator.
public struct Groups: Sendable {
    let database: AppDatabase
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger

    /// Makes group `name` (surrounding space ignored); returns its name.
    ///
    /// - Throws: `AccountError.invalid` when the name breaks GroupName's rule; `GroupError.exists`.
    @discardableResult
    public func add(name: String, client: ClientInfo) throws -> String {
        let name = try checked(name)
        try database.write { tx in
            guard try tx.insertGroup(name: name, now: clock.now()) != nil else {
                throw GroupError.exists(try tx.group(named: name)?.name ?? name)
            }
            try audit.record(.groupCreated, accountId: nil, email: nil, client: client, detail: "group \(name)", in: tx)
        }
        logger.info("group created by the operator", metadata: ["group": "\(name)"])
        return name
    }

    /// Removes group `name`; with members only when `force` (their memberships go with it). Returns its name as
    /// stored and how many members it had.
    @discardableResult
    public func remove(name: String, force: Bool, client: ClientInfo) throws -> (name: String, members: Int) {
        let (stored, members) = try database.write { tx -> (String, [Int64]) in
            guard let group = try tx.group(named: name) else { throw GroupError.noGroup(name) }
            try tx.lockGroup(group.id)   // every member is read, audited and forgotten at once by this host, none added meanwhile
            let members = try tx.groupMembers(group.id)
            guard members.isEmpty || force else { throw GroupError.hasMembers(group.name, count: members.count) }
            guard try tx.deleteGroup(group.id, members: members) else { throw GroupError.noGroup(name) }
            for member in members {
                try audit.record(.groupMemberRemoved, accountId: member, email: try EmailAddress.primaryAddress(of: member, in: tx),
                                 client: client, detail: "group \(group.name), removed by the operator", in: tx)
            }
            try audit.record(.groupDeleted, accountId: nil, email: nil, client: client,
                             detail: "group \(group.name), \(members.count) member(s)", in: tx)
            return (group.name, members)
        }
        logger.notice("group removed by the operator", metadata: ["group": "\(stored)", "members": "\(members.count)"])
        return (stored, members.count)
    }

    /// Every group with its member count, by name.
    public func list() throws -> [GroupSummary] {
        try database.read { tx in try tx.groupSummaries() }
    }

    /// The names of the groups of `accountId`, sorted without case.
    public func groups(of accountId: Int64) throws -> [String] {
        try database.read { tx in try tx.groupNames(of: accountId) }
    }

    /// Puts the account in the groups `adding` and takes it out of `removing`, all or nothing; returns its groups then.
    /// Being in a group already, or not in one, is no error.
    ///
    /// - Throws: `GroupError.noGroup` for a name no group has; `AdministrationError.noAccount` when the account is gone.
    @discardableResult
    public func change(accountId: Int64, adding: [String], removing: [String], client: ClientInfo) throws -> [String] {
        do {
            return try database.write { tx in
                guard let email = try EmailAddress.primaryAddress(of: accountId, in: tx) else {
                    throw AdministrationError.noAccount(String(accountId))
                }
                let now = clock.now()
                for (name, adds) in adding.map({ ($0, true) }) + removing.map({ ($0, false) }) {
                    guard let group = try tx.group(named: name) else { throw GroupError.noGroup(name) }
                    let changed = adds ? try tx.insertGroupMember(accountId: accountId, groupId: group.id, now: now)
                                       : try tx.deleteGroupMember(accountId: accountId, groupId: group.id)
                    guard changed else { continue }
                    try audit.record(adds ? .groupMemberAdded : .groupMemberRemoved, accountId: accountId, email: email, client: client,
                                     detail: "group \(group.name), by the operator", in: tx)
                }
                return try tx.groupNames(of: accountId)
            }
        } catch StorageError.constraint {
            // A group removed (or the account deleted) between the lookup and the insert: the foreign key refused it.
            throw GroupError.noGroup((adding + removing).joined(separator: ", "))
        }
    }

    /// `name` without surrounding space, when it follows GroupName's rule.
    private func checked(_ name: String) throws -> String {
        let name = name.trimmingWhitespace()
        let errors = GroupName.validator().validate(["group": name])
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        return name
    }
}
