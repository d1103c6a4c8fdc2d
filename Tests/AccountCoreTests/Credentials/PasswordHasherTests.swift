import Testing
@testable import AccountCore

struct PasswordHasherTests {
    let hasher = PasswordHasher(parameters: cheapHashing, random: SeededRandomSource(seed: 7))

    @Test func theDefaultsMakeOWASPsArgon2idHashesThatVerify() throws {
        let hasher = PasswordHasher(random: SeededRandomSource(seed: 1))
        #expect(hasher.parameters == PasswordHasher.Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1))
        let encoded = try hasher.hash("correct horse")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(hasher.verify("correct horse", against: encoded))
        #expect(!hasher.verify("correct horsE", against: encoded))
        #expect(!hasher.needsRehash(encoded))
    }

    @Test func theRightPasswordVerifiesAndOthersDoNot() throws {
        let encoded = try hasher.hash("correct horse")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(!encoded.contains("correct horse"))
        #expect(hasher.verify("correct horse", against: encoded))
        #expect(!hasher.verify("correct horse ", against: encoded))
        #expect(!hasher.verify("", against: encoded))
    }

    @Test func unicodeAndEmptyPasswordsHashAsTheirUTF8() throws {
        let encoded = try hasher.hash("pässwörd 🔑")
        #expect(hasher.verify("pässwörd 🔑", against: encoded))
        #expect(!hasher.verify("passwort 🔑", against: encoded))
        let empty = try hasher.hash("")
        #expect(hasher.verify("", against: empty))
    }

    @Test func eachHashHasItsOwnSaltFromTheRandomSource() throws {
        let first = try hasher.hash("correct horse"), second = try hasher.hash("correct horse")
        #expect(first != second)
        // The salt comes from the injected source: the same seed gives the same hash.
        let again = PasswordHasher(parameters: cheapHashing, random: SeededRandomSource(seed: 7))
        #expect(try again.hash("correct horse") == first)
    }

    @Test func anUnreadableHashNeverVerifies() {
        #expect(!hasher.verify("x", against: ""))
        #expect(!hasher.verify("x", against: "not a hash"))
        #expect(!hasher.verify("x", against: "$2b$12$abcdefghijklmnopqrstuu5Vwy1sbvK3l0B1z7H9Pj8g6ZmQz1n2"))
    }

    @Test func theDummyVerificationIsAlwaysFalse() {
        #expect(!hasher.verifyAgainstDummy("correct horse"))
        #expect(!hasher.verifyAgainstDummy(""))
        #expect(!hasher.verifyAgainstDummy("frontdoor dummy password"), "not even the dummy's own password")
    }

    @Test func hashesMadeWithOtherParametersNeedARehash() throws {
        let other = PasswordHasher(parameters: .init(memoryKiB: 128, iterations: 1, parallelism: 1), random: SeededRandomSource(seed: 8))
        let otherHash = try other.hash("correct horse")
        #expect(hasher.needsRehash(otherHash))
        #expect(!hasher.needsRehash(try hasher.hash("correct horse")))
        #expect(hasher.needsRehash("$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaA"), "argon2i is not argon2id")
        #expect(hasher.needsRehash("$argon2id$v=19$m=64,t=1,p=10$c2FsdHNhbHQ$aGFzaA"), "p=10 is not p=1")
        #expect(hasher.needsRehash(""))
        #expect(hasher.verify("correct horse", against: otherHash), "an old hash still verifies")
    }
}
