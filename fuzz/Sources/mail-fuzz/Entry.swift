// Entry.swift: libFuzzer's entry point for mail-fuzz, or, in a build without -DFUZZING, a stub that says how to build it.
#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    MailFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main struct Stub {
    static func main() { print("mail-fuzz: build with scripts/fuzz (swift build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)") }
}
#endif
