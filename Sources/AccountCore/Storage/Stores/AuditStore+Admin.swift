// AuditStore+Admin.swift: the primary addresses of the accounts an audit page names (AuditLog+Admin.swift).
//
// Options: none. One query for the page, not one per row; ids of deleted accounts simply find nothing. The list is
// a page's worth (at most 200 ids), well under any backend's limit of parameters. Portable SQL (Transaction.swift).
import Foundation

extension Transaction {
    /// The primary address of each of `accountIds` that still has an account.
    func primaryAddresses(of accountIds: [Int64]) throws -> [Int64: String] {
        guard !accountIds.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: accountIds.count).joined(separator: ", ")
        var found: [Int64: String] = [:]
        for row in try rows("SELECT accountId, address FROM emailAddress WHERE isPrimary AND accountId IN (\(marks))",
                            SQLArguments(accountIds.sorted())) {
            found[try row.decode("accountId")] = try row.decode("address")
        }
        return found
    }
}
