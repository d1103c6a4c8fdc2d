import Testing
@testable import AccountCore

struct RandomSourceTests {
    @Test func aSeedRepeatsItsBytesAndOtherSeedsDiffer() {
        let first = SeededRandomSource(seed: 42).bytes(64)
        #expect(first.count == 64)
        #expect(SeededRandomSource(seed: 42).bytes(64) == first)
        #expect(SeededRandomSource(seed: 43).bytes(64) != first)
        #expect(Set(first).count > 32, "not a constant pattern")
    }

    @Test func successiveCallsContinueTheSequence() {
        let random = SeededRandomSource(seed: 42)
        let a = random.bytes(16), b = random.bytes(16)
        #expect(a != b)
        #expect(a + b == SeededRandomSource(seed: 42).bytes(32))
    }

    @Test func theSystemSourceGivesTheCountAskedFor() {
        let random = SystemRandomSource()
        #expect(random.bytes(0).isEmpty)
        #expect(random.bytes(32).count == 32)
        #expect(random.bytes(32) != random.bytes(32))
    }
}
