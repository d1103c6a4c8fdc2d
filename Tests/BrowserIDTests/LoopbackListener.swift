// LoopbackListener.swift: a TCP listener on a loopback address that counts the connections it accepts and answers
// each with the same bytes, for the support-document fetch tests (traffic stays on loopback).
import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

final class LoopbackListener: Sendable {
    let address: String
    let port: UInt16
    private let fd: Int32
    private let accepted = Locked(0)
    private let stopped = Locked(false)

    /// Listens on `address` (127.x.y.z) at `port` (0: any free one); `answer` is written to each connection.
    init(address: String = "127.0.0.1", port: UInt16 = 0, answer: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        socketAddress.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 8) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        self.fd = fd
        self.address = address
        self.port = UInt16(bigEndian: socketAddress.sin_port)
        Thread.detachNewThread { [self] in
            defer { close(fd) }   // here, not in stop(): a number closed there could be reused by the next listener's socket
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0, !stopped.withLock({ $0 }) else { if connection >= 0 { close(connection) }; return }
                accepted.change { $0 += 1 }
                var buffer = [UInt8](repeating: 0, count: 4096)
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                _ = recv(connection, &buffer, buffer.count, 0)   // the request (or a TLS hello), then the answer
                let reply = Array(answer.utf8)
                _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                shutdown(connection, Int32(SHUT_RDWR))
                close(connection)
            }
        }
    }

    /// How many connections reached the listener so far.
    var connections: Int { accepted.withLock { $0 } }

    /// Wakes the accept loop, which ends and closes the socket.
    func stop() {
        stopped.change { $0 = true }
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// An HTTP answer with `body`.
    static func http(status: String = "200 OK", type: String = "application/json", body: String, extra: [String] = []) -> String {
        (["HTTP/1.1 \(status)", "Content-Type: \(type)", "Content-Length: \(body.utf8.count)", "Connection: close"] + extra)
            .joined(separator: "\r\n") + "\r\n\r\n" + body
    }
}
