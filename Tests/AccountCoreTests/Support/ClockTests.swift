import Foundation
import Testing
@testable import AccountCore

struct ClockTests {
    @Test func aFixedClockStandsStillUntilAdvanced() {
        let clock = FixedClock(Date(timeIntervalSince1970: 1000))
        #expect(clock.now() == Date(timeIntervalSince1970: 1000))
        #expect(clock.now() == clock.now())
        clock.advance(by: 2.5)
        #expect(clock.now() == Date(timeIntervalSince1970: 1002.5))
    }

    @Test func theSystemClockFollowsTheWallClock() {
        let before = Date()
        let now = SystemClock().now()
        #expect(now >= before && now.timeIntervalSince(before) < 60)
    }
}
