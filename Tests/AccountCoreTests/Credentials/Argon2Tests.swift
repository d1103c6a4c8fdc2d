// Argon2Tests.swift: the context-API hashing writes and reads exactly libargon2's own encoded form, with and
// without a thread's work memory, and refuses malformed hashes.
import CArgon2
import Foundation
import Locking
import Testing
@testable import AccountCore

struct Argon2Tests {
    let cheap = PasswordHasher.Parameters(memoryKiB: 256, iterations: 2, parallelism: 1)
    let salt = Array("sixteen byte salt".utf8.prefix(16))
    let password = Array("correct horse battery".utf8)

    /// libargon2's one-call encoder, the reference.
    func reference(_ parameters: PasswordHasher.Parameters) -> String {
        let length = argon2_encodedlen(parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                                       UInt32(salt.count), 32, Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let rc = argon2id_hash_encoded(parameters.iterations, parameters.memoryKiB, parameters.parallelism,
                                       password, password.count, salt, salt.count, 32, &encoded, length)
        #expect(rc == ARGON2_OK.rawValue)
        return encoded.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    @Test func writesWhatLibargon2WritesAndEachVerifiesTheOther() throws {
        for parameters in [cheap, .init(memoryKiB: 64, iterations: 3, parallelism: 2)] {
            let ours = try Argon2.hash(password, salt: salt, parameters: parameters).get()
            #expect(ours == reference(parameters))
            #expect(Argon2.verify(password, against: ours))
            #expect(argon2id_verify(ours, password, password.count) == ARGON2_OK.rawValue)
            #expect(!Argon2.verify(Array("wrong horse battery".utf8), against: ours))
        }
    }

    @Test func aThreadsWorkMemoryServesHashesThatFitAndMallocTheOthers() throws {
        // Given a thread with 256 KiB of work memory
        let results = try onOwnThread {
            Argon2.installThreadMemory(kib: 256)
            // When it hashes at that cost, below it, and above it (an old hash of a larger cost)
            return try [cheap, .init(memoryKiB: 128, iterations: 1, parallelism: 1), .init(memoryKiB: 1024, iterations: 1, parallelism: 1)]
                .map { parameters in (try Argon2.hash(password, salt: salt, parameters: parameters).get(), reference(parameters)) }
        }
        // Then every hash is libargon2's, whichever memory it used
        for (ours, theirs) in results { #expect(ours == theirs) }
    }

    @Test func malformedHashesDoNotVerify() throws {
        let good = try Argon2.hash(password, salt: salt, parameters: cheap).get()
        let parts = good.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        let bad = [
            "", "$", good + "$", "x" + good,
            good.replacingOccurrences(of: "argon2id", with: "argon2i"),
            good.replacingOccurrences(of: "v=19", with: "v=16"),
            good.replacingOccurrences(of: "m=256,", with: ""),
            good.replacingOccurrences(of: "m=256", with: "m=256,m=256"),
            good.replacingOccurrences(of: "t=2", with: "t=0"),
            good.replacingOccurrences(of: "p=1", with: "p=-1"),
            good.replacingOccurrences(of: "m=256", with: "m=99999999999"),
            ["", parts[1], parts[2], parts[3], parts[4] + "==", parts[5]].joined(separator: "$"),
            ["", parts[1], parts[2], parts[3], "%%%%", parts[5]].joined(separator: "$"),
            ["", parts[1], parts[2], parts[3], parts[4], ""].joined(separator: "$"),
        ]
        for text in bad { #expect(!Argon2.verify(password, against: text), "\(text)") }
    }

    private func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let thread = Thread { box.set(Result(catching: body)) }
        thread.start()
        return try box.wait().get()
    }
}

/// One result handed from a thread to the test.
private final class ResultBox<T: Sendable>: Sendable {
    private let value = Locked<Result<T, any Error>?>(nil)
    func set(_ result: Result<T, any Error>) { value.change { $0 = result } }
    func wait() -> Result<T, any Error> { value.withLock(waitingUntil: { $0 != nil }) { $0! }! }
}
