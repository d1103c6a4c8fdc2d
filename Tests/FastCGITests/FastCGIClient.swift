// FastCGIClient.swift: a minimal FastCGI client speaking the records by hand (FastCGI 1.0 spec §3, §5).
import Foundation
@testable import FastCGI

/// Builds records and talks to a server socket like nginx does (one request per connection).
enum FastCGIClient {
    enum RecordType: UInt8 { case beginRequest = 1, endRequest = 3, params = 4, stdin = 5, stdout = 6, stderr = 7 }

    /// One record: version 1, type, request id 1, content, padding to a multiple of 8.
    static func record(_ type: RecordType, _ content: [UInt8]) -> [UInt8] {
        let padding = (8 - content.count % 8) % 8
        return [1, type.rawValue, 0, 1, UInt8(content.count >> 8), UInt8(content.count & 0xFF), UInt8(padding), 0]
            + content + [UInt8](repeating: 0, count: padding)
    }

    /// A name-value pair with 1-byte lengths below 128 and 4-byte lengths (high bit set) above.
    static func pair(_ name: String, _ value: String) -> [UInt8] {
        func length(_ n: Int) -> [UInt8] {
            n < 128 ? [UInt8(n)] : [UInt8((n >> 24) | 0x80), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
        }
        return length(name.utf8.count) + length(value.utf8.count) + Array(name.utf8) + Array(value.utf8)
    }

    /// The bytes nginx would send for one request: BEGIN_REQUEST, PARAMS, empty PARAMS, STDIN in chunks, empty STDIN.
    static func request(params: [(String, String)], body: [UInt8], chunk: Int = 1000) -> [UInt8] {
        var bytes = record(.beginRequest, [0, 1, 0, 0, 0, 0, 0, 0])
        bytes += record(.params, params.flatMap { pair($0.0, $0.1) })
        bytes += record(.params, [])
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunk, body.count)
            bytes += record(.stdin, Array(body[offset..<end]))
            offset = end
        }
        return bytes + record(.stdin, [])
    }

    /// Connects to the unix socket at `path`, sends `bytes`, and returns the STDOUT content up to END_REQUEST.
    static func exchange(socketPath path: String, _ bytes: [UInt8]) throws -> String {
        let fd = try connect(socketPath: path)
        defer { close(fd) }
        try send(fd, bytes)
        return try readOutput(fd)
    }

    /// A connected socket to `path`; reads on it give up after 5 s, so a server that never answers fails the test
    /// instead of hanging it.
    static func connect(socketPath path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    /// Writes all of `bytes` to `fd`.
    static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            sent += n
        }
    }

    /// Reads records until the server closes, and returns the STDOUT content up to END_REQUEST.
    static func readOutput(_ fd: Int32) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 { throw POSIXError(.ETIMEDOUT) }
            if n == 0 { break }
            received += buffer[0..<n]
        }
        var output: [UInt8] = []
        var offset = 0
        while offset + 8 <= received.count {
            let type = received[offset + 1]
            let length = Int(received[offset + 4]) << 8 | Int(received[offset + 5])
            let padding = Int(received[offset + 6])
            guard offset + 8 + length <= received.count else { break }
            if type == RecordType.stdout.rawValue { output += received[(offset + 8)..<(offset + 8 + length)] }
            if type == RecordType.endRequest.rawValue { break }
            offset += 8 + length + padding
        }
        return String(decoding: output, as: UTF8.self)
    }
}
