// NativeAssertionLimitTests.swift: the native bridge's per-session count of assertions, with a fixed clock.
import AccountCore
import Foundation
import Testing
@testable import WebFront

struct NativeAssertionLimitTests {
    let ann = Data("ann's session".utf8), bob = Data("bob's session".utf8)

    @Test func aSessionGetsLimitInAWindowAndMoreAsTheOldestLeaveIt() {
        let clock = FixedClock()
        let limit = NativeAssertionLimit(clock: clock, limit: 3, window: 600)
        #expect(limit.retryAfter(for: ann) == 0)
        #expect(limit.take(for: ann))
        clock.advance(by: 100)
        #expect(limit.take(for: ann) && limit.take(for: ann))
        #expect(!limit.take(for: ann), "the fourth in the window")
        #expect(!limit.take(for: ann), "a refusal counts nothing and still refuses")
        #expect(limit.retryAfter(for: ann) == 500, "the first leaves the window 600 s after it was made")
        #expect(limit.take(for: bob), "each session has its own count")
        clock.advance(by: 499)
        #expect(!limit.take(for: ann))
        clock.advance(by: 1)
        #expect(limit.take(for: ann), "the first left the window")
        #expect(!limit.take(for: ann))
        #expect(limit.retryAfter(for: ann) == 100)
    }

    @Test func pastMaxSessionsTheIdlestAreForgotten() {
        let clock = FixedClock()
        let limit = NativeAssertionLimit(clock: clock, limit: 1, window: 600, maxSessions: 2)
        #expect(limit.take(for: ann))
        clock.advance(by: 1)
        #expect(limit.take(for: bob))
        clock.advance(by: 1)
        #expect(limit.take(for: Data("cy".utf8)), "a third session: ann's, the idlest, is forgotten")
        #expect(limit.take(for: ann), "forgotten: ann starts afresh")
        #expect(!limit.take(for: Data("cy".utf8)), "cy is still counted")
        clock.advance(by: 600)
        #expect(limit.take(for: Data("cy".utf8)), "cy's one left the window")
    }
}
