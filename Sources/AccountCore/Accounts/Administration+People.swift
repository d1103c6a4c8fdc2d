// Administration+People.swift: what the admin pages need of Administration besides the CLI's operations: a paged,
// searchable people list, a person's whole picture in one call, confirming addresses by hand with a reason, and
// ending one session by its page handle. The CLI could call each of them too: one set of operator operations.
//
// Options: none of its own (Administration's). Every change is audited with the caller's client, whose `actorId` names
// the admin (nil for the CLI). Search matches any address of the account, its username or display name, without case
// (AccountStore+People.swift).
import Foundation

/// One page of the people list.
public struct PeoplePage: Sendable, Equatable {
    public var people: [PersonSummary]
    /// More accounts match after this page.
    public var hasMore: Bool
}

/// Everything the admin's page of one person shows.
public struct PersonDetail: Sendable, Equatable {
    /// The account, its addresses (primary first), live session count, sign-in methods (Administration.show).
    public var detail: AccountDetail
    public var displayName: String
    /// Live sessions (browsers and app tokens), most recently seen first.
    public var sessions: [SessionEntry]
    public var identities: [LinkedIdentity]
    /// Confirmed one-time codes are on, with this many unused recovery codes.
    public var oneTimeCodes: Bool
    public var recoveryCodesLeft: Int
    public var passkeys: [Passkey]
    /// The person's groups, and every group's name (for the add form), sorted without case.
    public var groups: [String]
    public var allGroups: [String]
    /// The person's newest audit rows (at most `auditLimit`), newest first, and the address of each admin named in
    /// them (`actorId`) who still has an account.
    public var audit: [AuditEntry]
    public var actors: [Int64: String]
}

extension Administration {
    /// Accounts in id order (oldest first), `limit` from `offset`; `search` keeps those with an address, username or
    /// display name containing it (without case).
    public func people(search: String? = nil, limit: Int = 50, offset: Int = 0) throws -> PeoplePage {
        let found = try database.read { tx in try tx.personSummaries(search: search, limit: limit + 1, offset: offset) }
        let people = found.prefix(limit).map { person in
            var person = person
            person.account.lockedUntil = person.account.lockedUntil.flatMap { $0 > clock.now() ? $0 : nil }
            return person
        }
        return PeoplePage(people: Array(people), hasMore: found.count > limit)
    }

    /// The person's page: `show` plus sessions, providers, second factors, groups and the newest audit rows.
    ///
    /// - Throws: `AdministrationError.noAccount` when there is no such account.
    public func person(accountId: Int64, auditLimit: Int = 20) throws -> PersonDetail {
        let detail = try show(accountId: accountId)
        let bounds = sessions.liveBounds
        let audit = try self.audit.list(AuditFilter(accountId: accountId, limit: auditLimit))
        return try database.read { tx in
            let actorIds = Array(Set(audit.compactMap(\.actorId))).sorted()
            return PersonDetail(
                detail: detail, displayName: try tx.names(of: accountId)?.displayName ?? "",
                sessions: try tx.liveSessions(of: accountId, now: bounds.now, idleSince: bounds.idleSince, recentlySeenFirst: true),
                identities: try tx.linkedIdentities(accountId: accountId),
                oneTimeCodes: try tx.hasConfirmedOneTimeCode(accountId: accountId),
                recoveryCodesLeft: try tx.unusedRecoveryCodeCount(accountId: accountId),
                passkeys: try tx.passkeys(accountId: accountId),
                groups: try tx.groupNames(of: accountId), allGroups: try tx.groupSummaries().map(\.name),
                audit: audit, actors: try tx.primaryAddresses(of: actorIds))
        }
    }

    /// Marks the account's unverified addresses verified, as `confirm(accountId:client:)` does, recording why: each
    /// `email_confirmed` row says "by an admin: <reason>" (from the admin pages; "by the operator: <reason>" from the
    /// command line). Returns the addresses confirmed (empty: none was pending).
    ///
    /// - Throws: `AccountError.refused("admin_person_reason_missing")` without a reason;
    ///   `AdministrationError.noAccount` when there is no such account.
    @discardableResult
    public func confirm(accountId: Int64, reason: String, client: ClientInfo) throws -> [String] {
        // One line, not too long: it is read in the audit log and its CSV.
        let reason = String(reason.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace().prefix(500))
        guard !reason.isEmpty else { throw AccountError.refused("admin_person_reason_missing") }
        let confirmed = try database.write { tx in
            guard try tx.accountExists(accountId) else { throw AdministrationError.noAccount(String(accountId)) }
            let who = client.actorId == nil ? "by the operator" : "by an admin"   // the command line, or the admin pages
            return try markVerified(accountId: accountId, detail: "\(who): \(reason)", client: client, in: tx)
        }
        if !confirmed.isEmpty { logger.info("addresses confirmed by an admin", metadata: ["account": "\(accountId)"]) }
        return confirmed
    }

    /// Ends the account's live session named `handle` (SessionManagement.handle), as `revokeSession(shortId:)` does.
    ///
    /// - Throws: `AccountError.notFound` when `handle` names none of the account's sessions.
    public func revokeSession(handle: String, accountId: Int64, client: ClientInfo) throws {
        guard let prefix = SessionManagement.bytes(hex: handle), prefix.count == 16 else { throw AccountError.notFound }
        try database.write { tx in
            guard try tx.deleteSession(accountId: accountId, digestPrefix: prefix, at: clock.now()) > 0 else { throw AccountError.notFound }
            try audit.record(.sessionRevoked, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: tx),
                             client: client, detail: "session \(handle.prefix(12).lowercased()) by the operator", in: tx)
        }
        logger.info("session revoked by the operator", metadata: ["account": "\(accountId)"])
    }
}
