// AccountStore+Figures.swift: the counts of the admin health page (SiteFigures): accounts, live sessions, locked
// accounts, failed mail. (Unsent mail is MailStore's `pendingMailCount`, which /metrics reads too.)
//
// Options: none. Portable SQL; a live session as `Transaction.liveSQL` says (AccountStore+Administration).
import Foundation

extension Transaction {
    /// How many accounts there are.
    func accountCount() throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS total FROM account") ?? 0
    }

    /// How many accounts are locked at `now` (a lock ending after it).
    func lockedAccountCount(now: Double) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS total FROM account WHERE lockedUntil > ?", [now]) ?? 0
    }

    /// How many sessions, of every account and kind, are live at `now`.
    func countLiveSessions(now: Double, idleSince: Double) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS total FROM session WHERE " + Self.liveSQL(), [now, idleSince]) ?? 0
    }

    /// How many unsent messages failed their last attempt (they wait for their next one: MailQueue's backoff).
    func failedMailCount() throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS total FROM mailQueue WHERE sentAt IS NULL AND lastError IS NOT NULL") ?? 0
    }
}
