// Groups+Members.swift: who is in a group, for the admin page of one group (`admin/group?name=…`).
//
// Options: none. Each member is named by the account id and its primary address, sorted by that address without
// case (how an admin looks for someone in a list); the group's name is compared without case, as everywhere.
import AccountRules
import Foundation

/// One member of a group: the account and its primary address.
public struct GroupMember: Sendable, Equatable {
    public var accountId: Int64
    public var email: String
}

extension Groups {
    /// The members of group `name`, by address, with the group's name as stored.
    ///
    /// - Throws: `GroupError.noGroup` when no group has this name.
    public func members(of name: String) throws -> (name: String, members: [GroupMember]) {
        try database.read { tx in
            guard let group = try tx.group(named: name.trimmingWhitespace()) else { throw GroupError.noGroup(name) }
            return (group.name, try tx.groupMemberAddresses(group.id))
        }
    }
}
