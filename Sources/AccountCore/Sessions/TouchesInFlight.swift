// TouchesInFlight.swift: which sessions this process is marking used right now, so that of the requests a page makes at
// once (gated sub-requests, the waiting accounts' lookups) one writes `lastSeenAt` and the others go on without it.
//
// Options: none.
import Foundation
import Locking

/// The digests of the sessions being touched now; `begin` admits one touch per session at a time.
final class TouchesInFlight: Sendable {
    private let digests = Locked<Set<Data>>([])

    /// True when no touch of `digest` is in flight (and this one now is: call `end` after it); false otherwise.
    func begin(_ digest: Data) -> Bool {
        digests.withLock { $0.insert(digest).inserted }
    }

    func end(_ digest: Data) {
        digests.withLock { _ = $0.remove(digest) }
    }
}
