// ParamsTests.swift: params kept as bytes answer every lookup as a dictionary filled in order would (the last of a
// repeated name wins, a string without `=` is skipped, names and values may be empty or hold `=`), and a header
// lookup finds the HTTP_ param a header's name makes.
@_spi(Testing) import FastCGI
import Foundation
import Testing

struct ParamsTests {
    /// `entries` as the NULL-terminated C array libfcgi hands over, for the length of `body`.
    func withCStrings<T>(_ entries: [[UInt8]], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: entries.count + 1)
        for (index, entry) in entries.enumerated() {
            let string = UnsafeMutablePointer<CChar>.allocate(capacity: entry.count + 1)
            for (i, byte) in entry.enumerated() { string[i] = CChar(bitPattern: byte) }
            string[entry.count] = 0
            array[index] = string
        }
        array[entries.count] = nil
        defer {
            for index in 0..<entries.count { array[index]?.deallocate() }
            array.deallocate()
        }
        return body(array)
    }

    /// The plain rule: split at the first `=`, the last of a name wins.
    func expected(_ entries: [[UInt8]]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            result[String(decoding: entry[..<equals], as: UTF8.self)] = String(decoding: entry[(equals + 1)...], as: UTF8.self)
        }
        return result
    }

    @Test func lookupsAnswerAsTheDictionaryWould() {
        let entries = ["REQUEST_METHOD=GET", "HTTP_COOKIE=a=1; b=2", "EMPTY=", "=nameless", "NOEQUALS", "HTTP_X=first", "HTTP_X=last",
                       "HTTP_ACCEPT_LANGUAGE=fr-CH, fr;q=0.9", "UNICODE=é日本"].map { Array($0.utf8) }
        let params = withCStrings(entries) { Server.params($0) }
        #expect(params.dictionary == expected(entries))
        #expect(params["REQUEST_METHOD"] == "GET" && params["HTTP_COOKIE"] == "a=1; b=2" && params["EMPTY"] == "")
        #expect(params[""] == "nameless" && params["NOEQUALS"] == nil && params["HTTP_X"] == "last" && params["UNICODE"] == "é日本")
        #expect(params["REQUEST_METHO"] == nil && params["REQUEST_METHODS"] == nil && params["request_method"] == nil)
        let request = Request(params: params)
        #expect(request.header("Cookie") == "a=1; b=2" && request.header("accept-language") == "fr-CH, fr;q=0.9")
        #expect(request.header("x") == "last" && request.header("Missing") == nil)
        #expect(Server.params(nil).isEmpty && Params().isEmpty && Params([:]).dictionary.isEmpty)
    }

    @Test func contentTypeAndLengthAreReadWithoutThePrefix() {
        let request = Request(params: ["CONTENT_TYPE": "text/plain", "CONTENT_LENGTH": "3", "HTTP_CONTENT_TYPE": "wrong"])
        #expect(request.header("Content-Type") == "text/plain" && request.header("content-length") == "3")
    }

    @Test func randomParamsAnswerAsTheDictionaryWould() {
        // Whole characters: names are compared as bytes, so one that is not UTF-8 is found by its bytes only.
        let alphabet = ["A", "B", "_", "=", "-", "x", "é"].map { Array($0.utf8) }
        var seed: UInt64 = 0xFA57C61
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % bound
        }
        for _ in 0..<500 {
            let entries = (0..<next(8)).map { _ in (0..<next(7)).flatMap { _ in alphabet[next(alphabet.count)] } }
            let params = withCStrings(entries) { Server.params($0) }
            let want = expected(entries)
            #expect(params.dictionary == want)
            for name in Array(want.keys) + ["A", "B_", "HTTP_A", "", "x"] { #expect(params[name] == want[name], "\(entries) \(name)") }
            let request = Request(params: params)
            for header in ["a", "A-b", "B_", "-", ""] {
                let key = String(decoding: header.utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) },
                                 as: UTF8.self)
                let name = key == "CONTENT_TYPE" || key == "CONTENT_LENGTH" ? key : "HTTP_" + key
                #expect(request.header(header) == want[name], "\(entries) \(header)")
            }
        }
    }
}
