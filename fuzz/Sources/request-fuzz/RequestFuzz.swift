// RequestFuzz.swift: the properties request-fuzz checks. The input is FastCGI params as the library hands them over
// (NUL-separated NAME=VALUE strings, made into a NULL-terminated C array), then, after a double NUL, the body stream,
// which readBody reads in short, uneven chunks under a small limit.
@_spi(Testing) import FastCGI
import FuzzSupport
import Foundation

enum RequestFuzz {
    static let limit = 100

    static func run(_ bytes: [UInt8]) {
        let (entries, stream) = split(bytes)
        let params = withEnvp(entries) { Server.params($0) }
        require(params.dictionary == expectedParams(entries), "params() differs from the last NAME=VALUE of each name")
        require(Server.params(nil).isEmpty, "params(nil) is not empty")

        var offset = 0, call = 0
        let (body, tooLarge) = Server.readBody(length: params["CONTENT_LENGTH"], limit: limit) { buffer, count in
            call += 1
            let n = min(count, stream.count - offset, call % 7 + 1)   // short, uneven reads; 0 at the end of the stream
            for i in 0..<n { buffer[i] = CChar(bitPattern: stream[offset + i]) }
            offset += n
            return n
        }
        checkBody(length: params["CONTENT_LENGTH"], stream: stream, read: offset, body: body, tooLarge: tooLarge)
        checkRequest(Request(params: params, body: body, bodyTooLarge: tooLarge))
    }

    /// Params part (entries) and body stream: the input cut at its first double NUL.
    static func split(_ bytes: [UInt8]) -> ([[UInt8]], [UInt8]) {
        var i = 0
        while i + 1 < bytes.count, !(bytes[i] == 0 && bytes[i + 1] == 0) { i += 1 }
        let head = Array(bytes[..<min(i, bytes.count)]), stream = i + 1 < bytes.count ? Array(bytes[(i + 2)...]) : []
        return (Fuzz.parts(head, separator: 0).filter { !$0.isEmpty }, stream)
    }

    /// `entries` as a NULL-terminated array of C strings for the length of `body`.
    static func withEnvp<T>(_ entries: [[UInt8]], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let envp = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: entries.count + 1)
        for (index, entry) in entries.enumerated() {
            let string = UnsafeMutablePointer<CChar>.allocate(capacity: entry.count + 1)
            for (i, byte) in entry.enumerated() { string[i] = CChar(bitPattern: byte) }
            string[entry.count] = 0
            envp[index] = string
        }
        envp[entries.count] = nil
        defer {
            for index in 0..<entries.count { envp[index]?.deallocate() }
            envp.deallocate()
        }
        return body(envp)
    }

    /// What params() should answer, worked out independently: split at the first `=`, the last of a name wins.
    static func expectedParams(_ entries: [[UInt8]]) -> [String: String] {
        var expected: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            expected[Fuzz.text(Array(entry[..<equals]))] = Fuzz.text(Array(entry[(equals + 1)...]))
        }
        return expected
    }

    /// readBody: no usable length → nothing read; over the limit → dropped and flagged; else the stream's first bytes.
    static func checkBody(length: String?, stream: [UInt8], read: Int, body: [UInt8], tooLarge: Bool) {
        guard let length = length.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), length > 0 else {
            require(body.isEmpty && !tooLarge && read == 0, "a body without a positive CONTENT_LENGTH")
            return
        }
        require(tooLarge == (length > limit), "tooLarge is wrong for length \(length)")
        require(read <= min(length, 16 << 20), "read past CONTENT_LENGTH")
        if tooLarge { require(body.isEmpty, "a too-large body was kept") } else {
            require(body == Array(stream.prefix(read)) && body.count <= length, "the body is not the stream's first bytes")
        }
    }

    /// The accessors agree with the params they come from.
    static func checkRequest(_ request: Request) {
        let params = request.params
        require(request.method == (params["REQUEST_METHOD"] ?? "GET").uppercased(), "method")
        let uri = request.uri
        if let given = params["REQUEST_URI"], !given.isEmpty { require(uri == given, "uri is not REQUEST_URI") }
        require(!request.path.utf8.contains(UInt8(ascii: "?")), "path holds a ?")
        require(uri.utf8.starts(with: request.path.utf8), "path is not the start of uri")
        if params["QUERY_STRING"] == nil {
            let rest = Array(uri.utf8.dropFirst(request.path.utf8.count))
            require(rest.isEmpty ? request.query.isEmpty : rest == Array(("?" + request.query).utf8), "path + ? + query != uri")
        } else {
            require(request.query == params["QUERY_STRING"], "query is not QUERY_STRING")
        }
        require(request.header("Content-Type") == params["CONTENT_TYPE"] && request.contentType == params["CONTENT_TYPE"], "content type")
        require(request.header("content-length") == params["CONTENT_LENGTH"], "content length")
        for (key, value) in params.dictionary where key.hasPrefix("HTTP_") {
            let name = key.dropFirst(5)
            // A name that was not UTF-8 is here repaired (U+FFFD), while header() compares the bytes as sent.
            guard !name.utf8.contains(where: { $0 == UInt8(ascii: "-") || (0x61...0x7A).contains($0) }), !name.contains("\u{FFFD}"),
                  name != "CONTENT_TYPE", name != "CONTENT_LENGTH" else { continue }
            let header = String(decoding: name.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 },
                                as: UTF8.self)
            require(request.header(header) == value, "header(\(header.debugDescription)) is not \(key)")
        }
        let https = params["HTTPS"]?.lowercased()
        require(request.isHTTPS == (https == "on" || https == "1" || params["REQUEST_SCHEME"]?.lowercased() == "https"), "isHTTPS")
        require(request.remoteAddress == params["REMOTE_ADDR"], "remoteAddress")
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) { Fuzz.require(condition, "request-fuzz", message()) }
}
