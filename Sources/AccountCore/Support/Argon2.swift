// Argon2.swift: argon2id through libargon2's context API, so that the work memory is the calling pool thread's own
// buffer: allocated and made resident once, when the thread starts, and reused by every hash on that thread.
//
// Why: with libargon2's one-call functions each hash mallocs its 19 MiB; glibc serves the first from mmap and later
// ones from the thread's arena, so a block became resident whenever a thread happened to hash for the second time,
// minutes into a run (the soak test saw it as memory growth). With the buffer, hashing memory is
// `threads` × `argon2_memory_kib`, resident from the pool's start, and never moves afterwards.
// A thread without a buffer (or a hash that needs more, e.g. an old hash of a larger cost) falls back to malloc.
// The encoded form is the PHC string libargon2 writes: `$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>` (unpadded base64).
import CArgon2
import Foundation

/// argon2id hashing and verification that use the current thread's work memory when it has some.
enum Argon2 {
    /// Gives the current thread a work buffer of `kib` KiB, touched so that it is resident now.
    static func installThreadMemory(kib: UInt32) {
        let memory = WorkMemory(bytes: Int(kib) * 1024)
        Thread.current.threadDictionary[WorkMemory.key] = memory
    }

    /// The encoded argon2id hash of `password` with `salt`; libargon2's message when it fails.
    static func hash(_ password: [UInt8], salt: [UInt8], parameters: PasswordHasher.Parameters,
                     length: Int = 32) -> Result<String, PasswordHasher.HashingError> {
        var out = [UInt8](repeating: 0, count: length)
        let rc = withContext(password: password, salt: salt, parameters: parameters, out: &out) { argon2_ctx($0, Argon2_id) }
        guard rc == ARGON2_OK.rawValue else {
            return .failure(.init(description: "argon2: " + String(cString: argon2_error_message(rc))))
        }
        return .success(Encoded(parameters: parameters, salt: salt, hash: out).text)
    }

    /// True when `password` matches `encoded` (an argon2id PHC string); false for a mismatch or an unreadable hash.
    static func verify(_ password: [UInt8], against encoded: String) -> Bool {
        guard let parsed = Encoded(encoded) else { return false }
        var out = [UInt8](repeating: 0, count: parsed.hash.count)
        let rc = withContext(password: password, salt: parsed.salt, parameters: parsed.parameters, out: &out) { context in
            parsed.hash.withUnsafeBufferPointer { expected in
                expected.withMemoryRebound(to: CChar.self) { argon2id_verify_ctx(context, $0.baseAddress) }
            }
        }
        return rc == ARGON2_OK.rawValue
    }

    private static func withContext(password: [UInt8], salt: [UInt8], parameters: PasswordHasher.Parameters,
                                     out: inout [UInt8], _ body: (UnsafeMutablePointer<argon2_context>) -> Int32) -> Int32 {
        var password = password, salt = salt
        return out.withUnsafeMutableBufferPointer { out in
            password.withUnsafeMutableBufferPointer { pwd in
                salt.withUnsafeMutableBufferPointer { salt in
                    var context = argon2_context()
                    context.out = out.baseAddress
                    context.outlen = UInt32(out.count)
                    context.pwd = pwd.baseAddress
                    context.pwdlen = UInt32(pwd.count)
                    context.salt = salt.baseAddress
                    context.saltlen = UInt32(salt.count)
                    context.t_cost = parameters.iterations
                    context.m_cost = parameters.memoryKiB
                    context.lanes = parameters.parallelism
                    context.threads = parameters.parallelism
                    context.version = ARGON2_VERSION_13.rawValue
                    context.allocate_cbk = { memory, bytes in
                        guard let memory, let taken = WorkMemory.take(bytes) else { return ARGON2_MEMORY_ALLOCATION_ERROR.rawValue }
                        memory.pointee = taken
                        return ARGON2_OK.rawValue
                    }
                    context.free_cbk = { memory, _ in WorkMemory.give(back: memory) }
                    context.flags = 0   // ARGON2_DEFAULT_FLAGS (a macro Swift cannot see): wipe nothing more than libargon2 always does
                    return body(&context)
                }
            }
        }
    }
}

/// One thread's argon2 work memory.
private final class WorkMemory {
    static let key = "frontdoor.argon2.memory"
    let base: UnsafeMutablePointer<UInt8>
    let bytes: Int

    init(bytes: Int) {
        self.bytes = bytes
        base = .allocate(capacity: bytes)
        base.initialize(repeating: 0, count: bytes)   // every page touched: resident from now on
    }

    private static var current: WorkMemory? { Thread.current.threadDictionary[key] as? WorkMemory }

    /// The thread's buffer when it is big enough, else fresh memory from malloc (nil when there is none).
    static func take(_ bytes: Int) -> UnsafeMutablePointer<UInt8>? {
        if let memory = current, bytes <= memory.bytes { return memory.base }
        return malloc(bytes)?.assumingMemoryBound(to: UInt8.self)
    }

    /// Keeps the thread's buffer (libargon2 has already wiped it); frees what `take` got from malloc.
    static func give(back pointer: UnsafeMutablePointer<UInt8>?) {
        if let pointer, pointer != current?.base { free(pointer) }
    }
}
