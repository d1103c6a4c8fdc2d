// SiteFigures.swift: the numbers of the admin health page: accounts, live sessions, locked accounts, the mail queue,
// and sign-ins and failed sign-ins per hour over the last day (from the audit trail).
//
// Options: none of its own; what counts as a live session is the session policy's (Sessions.liveBounds), a lock is
// one ending after now. The hours are whole UTC hours (bucket = seconds since 1970 / 3600, rounded down): the last
// 24 of them, the current one last (not over yet). Read in one snapshot, so the numbers agree with each other.
// Counts only: every figure is a COUNT on an index (audit_event for the hours), never rows brought back to be counted.
import Foundation

/// Sign-ins and failed sign-ins per UTC hour: `signIns[i]` is the hour starting at `start + i` hours.
public struct HourlySignIns: Sendable, Equatable {
    /// The first hour's start (a whole UTC hour).
    public var start: Date
    public var signIns: [Int]
    public var failedSignIns: [Int]

    /// How many hours (the length of both lists).
    public var hours: Int { signIns.count }

    /// The start of hour `index`.
    public func hourStart(_ index: Int) -> Date { start.addingTimeInterval(Double(index) * 3600) }
}

/// The figures the admin health page shows, as of `at`.
public struct SiteFigureSet: Sendable, Equatable {
    public var at: Date
    public var accounts: Int
    /// Sessions live now (browser sessions and app tokens).
    public var liveSessions: Int
    /// Accounts whose lock ends after now.
    public var lockedAccounts: Int
    /// Unsent mail (also /metrics' `frontdoor_mail_queue_depth`).
    public var mailWaiting: Int
    /// Unsent mail whose last attempt failed (waiting for its next try).
    public var mailFailed: Int
    public var hourly: HourlySignIns

    /// Sign-ins over the hours of `hourly`.
    public var signInsTotal: Int { hourly.signIns.reduce(0, +) }
    /// Failed sign-ins over the hours of `hourly`.
    public var failedSignInsTotal: Int { hourly.failedSignIns.reduce(0, +) }
}

/// Reads the site's figures.
///
/// ```swift
/// let figures = try services.figures.current()
/// print(figures.accounts, figures.hourly.signIns)   // 24 hourly counts, oldest first
/// ```
public struct SiteFigures: Sendable {
    let database: AppDatabase
    let sessions: Sessions
    let clock: any Clock

    /// Hours of the sign-in series.
    public static let hours = 24

    /// Every figure, read in one transaction.
    public func current() throws -> SiteFigureSet {
        let bounds = sessions.liveBounds
        let now = clock.now()
        let window = Self.window(endingWith: now, hours: Self.hours)
        return try database.read { tx in
            SiteFigureSet(at: now, accounts: try tx.accountCount(),
                          liveSessions: try tx.countLiveSessions(now: bounds.now, idleSince: bounds.idleSince),
                          lockedAccounts: try tx.lockedAccountCount(now: bounds.now), mailWaiting: try tx.pendingMailCount(),
                          mailFailed: try tx.failedMailCount(), hourly: try Self.hourly(window, in: tx))
        }
    }

    /// Sign-ins and failed sign-ins per hour over the last `hours` hours (the current one last).
    public func signInsByHour(hours: Int = SiteFigures.hours) throws -> HourlySignIns {
        let window = Self.window(endingWith: clock.now(), hours: hours)
        return try database.read { tx in try Self.hourly(window, in: tx) }
    }

    /// The hour buckets: from `hours - 1` hours before the one holding `now` to that one, inclusive.
    static func window(endingWith now: Date, hours: Int) -> (first: Int64, count: Int) {
        let current = Int64((now.timeIntervalSince1970 / 3600).rounded(.down))
        return (current - Int64(max(1, hours)) + 1, max(1, hours))
    }

    /// The counts of the buckets of `window`; hours without a row are 0.
    static func hourly(_ window: (first: Int64, count: Int), in tx: Transaction) throws -> HourlySignIns {
        var signIns = [Int](repeating: 0, count: window.count), failed = signIns
        for bucket in try tx.hourlyAuditCounts(of: [.signIn, .signInFailed], firstHour: window.first, hours: window.count) {
            let index = Int(bucket.hour - window.first)
            guard signIns.indices.contains(index) else { continue }
            if bucket.event == AuditEvent.signIn.rawValue { signIns[index] += bucket.count } else { failed[index] += bucket.count }
        }
        return HourlySignIns(start: Date(timeIntervalSince1970: Double(window.first) * 3600), signIns: signIns, failedSignIns: failed)
    }
}

extension AccountServices {
    /// The admin health page's figures (built on demand: it keeps nothing).
    public var figures: SiteFigures { SiteFigures(database: database, sessions: sessions, clock: clock) }
}
