// GroupStore+Members.swift: the members of one group with their primary address (Groups+Members.swift).
//
// Options: none. One join, sorted by the address without case (lower() on both backends); an account always has a
// primary address, so the inner join leaves no member out. Portable SQL (Transaction.swift).
import Foundation

extension Transaction {
    /// The accounts in group `groupId` with their primary address, by address without case.
    func groupMemberAddresses(_ groupId: Int64) throws -> [GroupMember] {
        try rows("""
            SELECT m.accountId, e.address FROM groupMember m
            JOIN emailAddress e ON e.accountId = m.accountId AND e.isPrimary
            WHERE m.groupId = ? ORDER BY lower(e.address), m.accountId
            """, [groupId]).map { row in
            GroupMember(accountId: try row.decode("accountId"), email: try row.decode("address"))
        }
    }
}
