// GroupStore.swift: the store operations on `accountGroup` (a name, unique without case) and `groupMember` (which
// account is in which group), for Groups.swift.
//
// Options: none. The session lookup reads an account's group names (SessionLookup.sql), so every change of a
// membership reports the account (`sessionsChanged`): this host's cache forgets it when the transaction ends, and
// on PostgreSQL the membership table's trigger (v15-groups) tells every other host. Portable SQL (Transaction.swift).
import AccountRules
import Foundation

/// One group as `frontdoor group list` shows it.
public struct GroupSummary: Sendable, Equatable {
    public var name: String
    public var createdAt: Date
    public var members: Int
}

extension Transaction {
    /// Stores a new group; nil when a group with the same name in any case exists (the unique normalized name).
    func insertGroup(name: String, now: Date) throws -> Int64? {
        try value(Int64.self, """
            INSERT INTO accountGroup (name, normalizedName, createdAt) VALUES (?, ?, ?)
            ON CONFLICT (normalizedName) DO NOTHING RETURNING id
            """, [name, GroupName.normalized(name), now])
    }

    /// The group called `name` (compared without case): its id and its name as stored.
    func group(named name: String) throws -> (id: Int64, name: String)? {
        try row("SELECT id, name FROM accountGroup WHERE normalizedName = ?", [GroupName.normalized(name)]).map { row in
            (id: try row.decode("id"), name: try row.decode("name"))
        }
    }

    /// Holds group `groupId` until this transaction ends, so no membership of it is added meanwhile (a membership's
    /// foreign key check waits for the row, then finds it gone): what the caller reads next is every member there
    /// will be. SQLite runs one writer at a time already.
    func lockGroup(_ groupId: Int64) throws {
        guard dialect == .postgresql else { return }
        try execute("SELECT id FROM accountGroup WHERE id = ? FOR UPDATE", [groupId])
    }

    /// Every group with its member count, by name.
    func groupSummaries() throws -> [GroupSummary] {
        try rows("""
            SELECT g.name, g.createdAt, (SELECT COUNT(*) FROM groupMember m WHERE m.groupId = g.id) AS members
            FROM accountGroup g ORDER BY g.normalizedName
            """).map { row in
            GroupSummary(name: try row.decode("name"), createdAt: try row.decode("createdAt"), members: Int(try row.decode("members") as Int64))
        }
    }

    /// The accounts in group `groupId`, by id.
    func groupMembers(_ groupId: Int64) throws -> [Int64] {
        try values(Int64.self, "SELECT accountId FROM groupMember WHERE groupId = ? ORDER BY accountId", [groupId])
    }

    /// Deletes group `groupId` and, by the cascade, its memberships; reports each member given (the caller read them
    /// in this transaction). False when the group was gone already.
    func deleteGroup(_ groupId: Int64, members: [Int64]) throws -> Bool {
        for member in members { sessionsChanged(.account(member)) }
        return try execute("DELETE FROM accountGroup WHERE id = ?", [groupId]) == 1
    }

    /// The names of the groups of `accountId`, sorted without case.
    func groupNames(of accountId: Int64) throws -> [String] {
        try values(String.self, """
            SELECT g.name FROM groupMember m JOIN accountGroup g ON g.id = m.groupId WHERE m.accountId = ? ORDER BY g.normalizedName
            """, [accountId])
    }

    /// Puts `accountId` in group `groupId`; false when it was in it already.
    func insertGroupMember(accountId: Int64, groupId: Int64, now: Date) throws -> Bool {
        sessionsChanged(.account(accountId))
        return try execute("""
            INSERT INTO groupMember (accountId, groupId, createdAt) VALUES (?, ?, ?) ON CONFLICT (accountId, groupId) DO NOTHING
            """, [accountId, groupId, now]) == 1
    }

    /// Takes `accountId` out of group `groupId`; false when it was not in it.
    func deleteGroupMember(accountId: Int64, groupId: Int64) throws -> Bool {
        sessionsChanged(.account(accountId))
        return try execute("DELETE FROM groupMember WHERE accountId = ? AND groupId = ?", [accountId, groupId]) == 1
    }
}
