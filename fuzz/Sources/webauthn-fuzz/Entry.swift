// Entry.swift: libFuzzer's entry points for webauthn-fuzz (LLVMFuzzerInitialize writes the seed corpus when
// FUZZ_SEED_DIR is set), or, in a build without -DFUZZING, a stub that says how to build it.
#if FUZZING
import Foundation

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    if let folder = ProcessInfo.processInfo.environment["FUZZ_SEED_DIR"] {
        for (index, seed) in WebAuthnFuzz.seeds().enumerated() {
            _ = FileManager.default.createFile(atPath: folder + "/seed-\(index)", contents: Data(seed))
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    WebAuthnFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main struct Stub {
    static func main() { print("webauthn-fuzz: build with scripts/fuzz (swift build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)") }
}
#endif
