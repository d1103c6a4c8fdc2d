// PostgresListenerTests.swift: a listener whose connection dies without a word (a NAT or load balancer that stops
// forwarding, a firewall that drops its state) notices it by its heartbeat: the host stops serving its cache, so a
// sign-out made on another host is not let through until entries age out.
import Foundation
import Locking
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct PostgresListenerTests {
    @Test func aConnectionThatFallsSilentStopsTheCacheWithinThreeHeartbeats() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let proxy = try SilentProxy(url: url)
        defer { proxy.stop() }
        var settings = PostgresSettings(url: proxy.url, sessionCacheMaxAge: 300)
        // A second: short enough for a quick test, long enough that a loaded machine (the unit suites run in
        // parallel on two cores) answers a ping within three of them; 0.3 s was not, once.
        settings.listenerHeartbeat = 1
        let host = try PostgresBackend(settings: settings)
        try wait("the host listens", seconds: 10) { host.figures?.sessionCache?.listening == true }
        let digest = Data(repeating: 7, count: 32)
        try host.write { tx in
            let id = try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES ('x', 1, 1) RETURNING id")
            try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt) VALUES (?, ?, ?, TRUE, 1, 1)",
                           [id, "ann@example.com", "ann@example.com"])
            try tx.insertSession(digest: digest, accountId: id, now: Date(), expiresAt: Date() + 3600, rememberMe: false,
                                 client: ClientInfo(), kind: .browser)
        }
        // Still listening after several heartbeats while the connection carries them (the write's own notifications
        // have arrived by then, so what is found now stays cached).
        usleep(3_500_000)
        #expect(host.figures?.sessionCache?.listening == true)
        #expect(try host.findBrowserSession(digest: digest) != nil)
        let hits = host.figures?.sessionCache?.hits ?? 0
        #expect(try host.findBrowserSession(digest: digest) != nil)
        #expect(host.figures?.sessionCache?.entries == 1 && host.figures?.sessionCache?.hits == hits + 1, "served from the cache")

        proxy.fallSilent()   // no FIN, no RST: the socket reports nothing
        try wait("the host stops serving its cache", seconds: 10) { host.figures?.sessionCache?.listening == false }
        #expect(host.figures?.sessionCache?.entries == 0)
    }

    func wait(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
        let start = Date()
        while try !condition() {
            guard Date().timeIntervalSince(start) < seconds else { throw StorageError.failed("timed out waiting until \(what)") }
            usleep(5000)
        }
    }
}

/// A unix-socket relay in front of the test cluster's socket that can stop relaying without closing anything.
final class SilentProxy: @unchecked Sendable {
    let url: String
    private let listener: Int32
    private let target: String
    private let silent = Locked(false)
    private let stopped = Locked(false)

    init(url: String) throws {
        guard let host = url.firstMatch(of: /host=([^&]+)/)?.1, let port = url.firstMatch(of: /port=([0-9]+)/)?.1 else {
            throw StorageError.failed("the test URL names no socket folder and port: \(url)")
        }
        let folder = NSTemporaryDirectory() + "fd-proxy-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        target = "\(host)/.s.PGSQL.\(port)"
        self.url = url.replacingOccurrences(of: "host=\(host)", with: "host=\(folder)")
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(folder + "/.s.PGSQL.\(port)")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(listener, 16) == 0 else { throw StorageError.failed("proxy: cannot listen") }
        Thread { [self] in accepting() }.start()
    }

    func fallSilent() { silent.change { $0 = true } }

    /// Ends the relays (closing both ends) and stops accepting.
    func stop() {
        stopped.change { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        return address
    }

    private func accepting() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.address(target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            Thread { [self] in relay(from: client, to: server) }.start()
            Thread { [self] in relay(from: server, to: client) }.start()
        }
    }

    /// Copies bytes until either side closes; once silent, reads nothing more and keeps both ends open.
    private func relay(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        defer { close(source) }
        while !stopped.withLock({ $0 }) {
            if silent.withLock({ $0 }) { usleep(50_000); continue }
            var descriptor = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) >= 0 else { return }
            guard descriptor.revents != 0, !silent.withLock({ $0 }) else { continue }
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { shutdown(destination, Int32(SHUT_WR)); return }
            var written = 0
            while written < count {
                let n = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + written, count - written) }
                guard n > 0 else { return }
                written += n
            }
        }
    }
}
