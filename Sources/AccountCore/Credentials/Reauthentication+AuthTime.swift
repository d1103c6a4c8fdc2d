// Reauthentication+AuthTime.swift: when a session last proved who is there (OpenID Connect's `auth_time`, and the
// authorize endpoint's `max_age` and `prompt=login`). A file of its own: WebFront needs the time, and the store's
// `sessionAuthenticatedAt` is internal to AccountCore.
//
// Options: none. The time is the session's `authenticatedAt`: set at a sign-in that proved the person (password,
// passkey, provider), at a re-authentication, at a second step; 0 (never) for a session made without a proof, which
// then counts from its creation.
import Foundation

extension Reauthentication {
    /// When the session `digest` last proved who is there; its creation time when it never did; nil when it is gone.
    public func authenticatedAt(_ digest: Data) throws -> Date? {
        try database.read { tx -> Date? in
            guard let at = try tx.sessionAuthenticatedAt(digest: digest) else { return nil }
            if at > 0 { return Date(timeIntervalSince1970: at) }
            return try tx.value(Double.self, "SELECT createdAt FROM session WHERE digest = ?", [digest]).map { Date(timeIntervalSince1970: $0) }
        }
    }
}
