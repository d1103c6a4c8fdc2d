// CurlHTTPClientTests.swift: the libcurl client against a one-request loopback server, and the URLs it refuses.
import Foundation
import Locking
import OAuthClient
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that takes one request, answers `answer` and closes.
private final class OneShotServer: Sendable {
    let port: UInt16
    private let received = Locked<[UInt8]>([])
    private let finished = Locked(false)

    /// Listens (or only binds, when `listening` is false: connections are then refused).
    init(answer: String, listening: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, !listening || listen(fd, 1) == 0 else { close(fd); throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
        guard listening else { Thread.detachNewThread { [finished] in _ = finished.withLock(waitingUntil: { $0 }, timeout: 10) { _ in }; close(fd) }; return }
        Thread.detachNewThread { [self] in
            defer { close(fd); finished.change { $0 = true } }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var readTimeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &readTimeout, socklen_t(MemoryLayout<timeval>.size))
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !Self.isComplete(bytes) {
                let n = recv(connection, &buffer, buffer.count, 0)
                guard n > 0 else { break }
                bytes += buffer[0..<n]
            }
            received.withLock { $0 = bytes }
            let reply = Array(answer.utf8)
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// The request as received, once the server is done.
    func request() -> String {
        _ = finished.withLock(waitingUntil: { $0 }) { _ in }
        return String(decoding: received.withLock { $0 }, as: UTF8.self)
    }

    /// Stops a server that only binds.
    func stop() { finished.change { $0 = true } }

    /// Whether `bytes` hold the headers and as many body bytes as Content-Length says.
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let length = text[..<end.lowerBound].split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.distance(from: end.upperBound, to: text.utf8.endIndex) >= length
    }
}

private func reply(status: String = "200 OK", headers: [String] = ["Content-Type: application/json"], body: String) -> String {
    (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
}

@Suite struct CurlHTTPClientTests {
    @Test func postsTheBodyAndHeadersAndReadsTheAnswer() throws {
        let server = try OneShotServer(answer: reply(body: #"{"access_token":"at"}"#))
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/token",
                                  headers: [.init("Accept", "application/json"), .init("Content-Type", "application/x-www-form-urlencoded")],
                                  body: Array("grant_type=authorization_code&code=c%201".utf8))
        let response = try CurlHTTPClient(timeout: 5).send(request)
        #expect(response.status == 200 && response.contentType == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"access_token":"at"}"#)
        let received = server.request()
        #expect(received.hasPrefix("POST /token HTTP/1.1\r\n"))
        #expect(received.contains("\r\nAccept: application/json\r\n") && received.contains("\r\nContent-Length: 40\r\n"))
        #expect(received.hasSuffix("\r\n\r\ngrant_type=authorization_code&code=c%201"))
    }

    @Test func aRedirectIsReturnedNotFollowed() throws {
        let server = try OneShotServer(answer: reply(status: "302 Found", headers: ["Location: http://127.0.0.1:1/elsewhere"], body: ""))
        let response = try CurlHTTPClient(timeout: 5).send(HTTPRequest(url: "http://localhost:\(server.port)/user"))
        #expect(response.status == 302)
        #expect(server.request().hasPrefix("GET /user HTTP/1.1\r\n"))
    }

    @Test func anAnswerOverTheLimitIsRefused() throws {
        let server = try OneShotServer(answer: reply(body: String(repeating: "x", count: 5000)))
        #expect(throws: OAuthError.invalidResponse("answer from http://127.0.0.1:\(server.port)/big larger than 1000 bytes")) {
            try CurlHTTPClient(timeout: 5, maxBytes: 1000).send(HTTPRequest(url: "http://127.0.0.1:\(server.port)/big"))
        }
        _ = server.request()
    }

    @Test func aRefusedConnectionIsUnreachable() throws {
        let server = try OneShotServer(answer: "", listening: false)
        defer { server.stop() }
        #expect {
            try CurlHTTPClient(timeout: 5).send(HTTPRequest(url: "http://127.0.0.1:\(server.port)/"))
        } throws: { error in
            if case OAuthError.unreachable? = error as? OAuthError { true } else { false }
        }
    }

    @Test(arguments: ["http://example.com/token", "http://10.0.0.1/token", "ftp://127.0.0.1/x", "file:///etc/passwd",
                      "http://127.0.0.1@example.com/", "https://example.com/a b"])
    func urlsOutsideThePolicyAreRefusedWithoutConnecting(url: String) {
        #expect(throws: OAuthError.unreachable("refused \(url): only https, or http to a loopback host")) {
            try CurlHTTPClient(timeout: 1).send(HTTPRequest(url: url))
        }
    }

    @Test func headersCannotSmuggleLines() {
        #expect(throws: OAuthError.unreachable("refused header X")) {
            try CurlHTTPClient(timeout: 1).send(HTTPRequest(url: "http://127.0.0.1:1/", headers: [.init("X", "a\r\nHost: evil")]))
        }
    }
}
