// CommittedFailure.swift: the seam's commit-then-fail outcome. A write body normally rolls back when it throws; some
// refusals must keep what they wrote first (a reused refresh token revokes its whole family, a replayed authorization
// code revokes the grant it issued, and only then is the caller refused). The body throws `CommittedFailure(error)`:
// `AppDatabase.write` commits what the body wrote, then throws `error`.
//
// Options: none. Works the same on every backend: AppDatabase.write turns the body's CommittedFailure into a value the
// backend commits like any result, so SQLite and PostgreSQL (including its retry after a serialization conflict, which
// runs the body again and commits that run) need nothing of their own.

/// Thrown by a write body: "commit what I wrote, then fail with `error`".
///
/// ```swift
/// try database.write { tx in
///     guard try tx.markRefreshTokenUsed(digest) else {
///         try tx.revokeGrant(id, at: now)                       // kept
///         throw CommittedFailure(OpenIDError.invalidGrant("refresh token reused"))
///     }
///     …
/// }
/// ```
public struct CommittedFailure: Error {
    public let error: any Error

    public init(_ error: any Error) {
        self.error = error
    }
}
