// SessionManagement.swift: a person's view of their own sessions: list, revoke one, sign out everywhere else.
//
// Options: the session policy (`session.*`) decides which sessions are live, as for `Sessions.isLive`.
// A session is named in pages by its handle: the hex of the first 16 bytes of its stored digest (itself a SHA-256 of
// the cookie's token), which cannot be turned back into a cookie. Every change is scoped to the account and audited;
// a revoked session stops working on its next request, since every request reads the session table.
import Foundation
import Logging

/// A live session as a list shows it to its owner (the sessions page) or the operator (`frontdoor session list`): the
/// session (its fields read through, `entry.createdAt`) with where it was started, never its token.
@dynamicMemberLookup
public struct SessionEntry: Sendable, Equatable {
    public var session: SessionInfo
    public var userAgent: String
    public var remoteAddress: String
    /// The session of the browser asking (the owner's list; false in the operator's).
    public var isCurrent: Bool

    public subscript<T>(dynamicMember field: KeyPath<SessionInfo, T>) -> T { session[keyPath: field] }

    /// An opaque id safe to put in a page (hex of the first 16 bytes of the digest).
    public var handle: String { SessionManagement.handle(for: session.digest) }
    /// The first 12 hex digits of the digest: what the operator types to name it.
    public var shortId: String { String(handle.prefix(12)) }
}

/// The sessions of one account, as their owner manages them.
public struct SessionManagement: Sendable {
    let database: AppDatabase
    let sessions: Sessions
    let audit: AuditLog
    let logger: Logger

    /// The handle of the session whose digest is `digest`.
    public static func handle(for digest: Data) -> String {
        digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The account's live sessions, most recently seen first; `current` marks the asking browser's.
    public func list(accountId: Int64, current digest: Data) throws -> [SessionEntry] {
        let (now, idleSince) = sessions.liveBounds
        return try database.read { tx in
            try tx.liveSessions(of: accountId, now: now, idleSince: idleSince, current: digest, recentlySeenFirst: true)
        }
    }

    /// Ends the account's session named `handle` (the asking browser's own included: that signs it out).
    ///
    /// - Throws: `AccountError.notFound` when `handle` names none of the account's sessions.
    public func revoke(handle: String, accountId: Int64, client: ClientInfo) throws {
        guard let prefix = Self.bytes(hex: handle), prefix.count == 16 else { throw AccountError.notFound }
        try database.write { tx in
            guard try tx.deleteSession(accountId: accountId, digestPrefix: prefix, at: sessions.clock.now()) > 0 else { throw AccountError.notFound }
            try audit.record(.sessionRevoked, accountId: accountId, email: try primary(accountId, in: tx), client: client,
                             detail: "session \(handle.prefix(12).lowercased()) by its owner", in: tx)
        }
        logger.info("session revoked by its owner", metadata: ["account": "\(accountId)"])
    }

    /// Ends every session of the account except `digest` (the asking browser's); returns how many ended.
    @discardableResult
    public func revokeOthers(accountId: Int64, except digest: Data, client: ClientInfo) throws -> Int {
        let ended = try database.write { tx -> Int in
            let ended = try tx.deleteSessions(of: accountId, keeping: digest, at: sessions.clock.now())
            try audit.record(.sessionRevoked, accountId: accountId, email: try primary(accountId, in: tx), client: client,
                             detail: "\(ended) other session(s) by its owner", in: tx)
            return ended
        }
        logger.info("other sessions revoked by their owner", metadata: ["account": "\(accountId)", "ended": "\(ended)"])
        return ended
    }

    private func primary(_ accountId: Int64, in tx: Transaction) throws -> String? {
        try EmailAddress.primaryAddress(of: accountId, in: tx)
    }

    /// The bytes `hex` spells (two digits each), or nil when it is not hex.
    static func bytes(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var data = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(of: digits[index]), let low = value(of: digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
