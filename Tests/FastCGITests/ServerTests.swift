import Foundation
import Locking
import Testing
@_spi(Testing) @testable import FastCGI

/// Echoes what it was given, so the tests can see what the server built. A PAD param puts that many spaces
/// before the echo, for a response too big to fit in a socket buffer.
struct EchoResponder: Responder {
    func respond(to request: Request) -> Response {
        let padding = String(repeating: " ", count: Int(request.params["PAD"] ?? "") ?? 0)
        let text = padding + "\(request.method) \(request.path) body=\(request.body.count) tooLarge=\(request.bodyTooLarge) long=\(request.params["LONG"]?.count ?? 0)"
        return Response(status: 200, headers: [(name: "Content-Type", value: "text/plain")], body: Array(text.utf8))
    }
}

/// A server on a fresh unix socket, served from a background thread until `stop()`.
final class RunningServer: @unchecked Sendable {
    let path = NSTemporaryDirectory() + "fcgi-test-\(UUID().uuidString.prefix(8)).sock"
    let server: Server
    let done = Locked(false)

    init(maxBodyBytes: Int = 65_536, workers: Int = 2) throws {
        server = Server(configuration: ServerConfiguration(socketPath: path, socketMode: 0o600, workers: workers, maxBodyBytes: maxBodyBytes),
                        responder: EchoResponder())
        Thread { [server, done] in
            try? server.run()
            done.change { $0 = true }
        }.start()
        // Wait (bounded) until the socket accepts connections.
        let deadline = Date().addingTimeInterval(10)
        while (try? FastCGIClient.exchange(socketPath: path, FastCGIClient.request(params: [("REQUEST_METHOD", "GET")], body: []))) == nil {
            guard Date() < deadline else { throw POSIXError(.ETIMEDOUT) }
            usleep(10_000)
        }
    }

    func send(_ params: [(String, String)], body: [UInt8] = []) throws -> String {
        try FastCGIClient.exchange(socketPath: path, FastCGIClient.request(params: params, body: body))
    }

    /// Shuts the server down and waits until `run()` has returned.
    func stop() -> Bool {
        server.shutdown()
        let returned = done.withLock(waitingUntil: { $0 }, timeout: 10) { _ in true } ?? false
        unlink(path)
        return returned
    }
}

@Suite(.serialized)
struct ServerTests {
    @Test func aGetRoundTripsThroughRealLibfcgi() throws {
        let running = try RunningServer()
        let long = String(repeating: "x", count: 300)
        let output = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/account/sign_in?x=1"), ("LONG", long)])
        #expect(output.hasPrefix("Status: 200 OK\r\n"))
        #expect(output.hasSuffix("\r\n\r\nGET /account/sign_in body=0 tooLarge=false long=300"))
        #expect(running.stop())
    }

    @Test func aPostBodyArrivesWholeAcrossStdinRecords() throws {
        let running = try RunningServer()
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 5000)
        let output = try running.send([("REQUEST_METHOD", "POST"), ("REQUEST_URI", "/p"), ("CONTENT_LENGTH", "5000")], body: body)
        #expect(output.hasSuffix("POST /p body=5000 tooLarge=false long=0"))
        #expect(running.stop())
    }

    @Test func aBodyOverTheLimitIsDroppedAndMarkedAndTheServerGoesOn() throws {
        let running = try RunningServer(maxBodyBytes: 1024)
        let body = [UInt8](repeating: 1, count: 4096)
        let output = try running.send([("REQUEST_METHOD", "POST"), ("REQUEST_URI", "/big"), ("CONTENT_LENGTH", "4096")], body: body)
        #expect(output.hasSuffix("POST /big body=0 tooLarge=true long=0"))
        let next = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/after")])
        #expect(next.hasSuffix("GET /after body=0 tooLarge=false long=0"))
        #expect(running.stop())
    }

    @Test func manyRequestsInSequenceAreServedByTheWorkers() throws {
        let running = try RunningServer(workers: 2)
        for i in 0..<50 {
            let output = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/n\(i)")])
            #expect(output.hasSuffix("GET /n\(i) body=0 tooLarge=false long=0"))
        }
        #expect(running.stop())
    }

    @Test func aStalledClientHoldsOneWorkerAndTheOtherServes() throws {
        let running = try RunningServer(workers: 2)
        // Given a connection that sent half a request and waits,
        let stalled = try FastCGIClient.connect(socketPath: running.path)
        let whole = FastCGIClient.request(params: [("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/slow")], body: [])
        try FastCGIClient.send(stalled, Array(whole[..<20]))
        // when another client asks, the second worker answers it;
        let output = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/fast")])
        #expect(output.hasSuffix("GET /fast body=0 tooLarge=false long=0"))
        // and the stalled one is still answered once the rest arrives.
        try FastCGIClient.send(stalled, Array(whole[20...]))
        let late = try FastCGIClient.readOutput(stalled)
        close(stalled)
        #expect(late.hasSuffix("GET /slow body=0 tooLarge=false long=0"))
        #expect(running.stop())
    }

    /// The client (nginx) hangs up in the middle of the body, kept or over the limit: the worker carries on.
    @Test(arguments: [65_536, 1024])
    func aClientThatHangsUpMidBodyDoesNotStopTheServer(maxBodyBytes: Int) throws {
        let running = try RunningServer(maxBodyBytes: maxBodyBytes, workers: 1)
        let whole = FastCGIClient.request(params: [("REQUEST_METHOD", "POST"), ("REQUEST_URI", "/cut"), ("CONTENT_LENGTH", "50000")],
                                          body: [UInt8](repeating: 2, count: 50_000))
        let fd = try FastCGIClient.connect(socketPath: running.path)
        try FastCGIClient.send(fd, Array(whole[..<3000]))
        close(fd)
        let next = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/after")])
        #expect(next.hasSuffix("GET /after body=0 tooLarge=false long=0"))
        #expect(running.stop())
    }

    @Test func aClientThatLeavesBeforeTheResponseDoesNotStopTheServer() throws {
        let running = try RunningServer(workers: 1)
        // A 4 MB answer cannot sit in the socket buffer, so the worker's write fails (EPIPE, not SIGPIPE).
        let fd = try FastCGIClient.connect(socketPath: running.path)
        try FastCGIClient.send(fd, FastCGIClient.request(params: [("REQUEST_METHOD", "GET"), ("PAD", "4000000")], body: []))
        close(fd)
        let next = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/after")])
        #expect(next.hasSuffix("GET /after body=0 tooLarge=false long=0"))
        #expect(running.stop())
    }

    /// Bytes that are not FastCGI (wrong version, a lone header, HTTP) close that connection, nothing more.
    @Test(arguments: [[UInt8](repeating: 0xFF, count: 64), [1, 1, 0, 1], Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)])
    func garbageOnTheSocketIsSurvived(garbage: [UInt8]) throws {
        let running = try RunningServer(workers: 1)
        let fd = try FastCGIClient.connect(socketPath: running.path)
        try FastCGIClient.send(fd, garbage)
        shutdown(fd, Int32(SHUT_WR))
        _ = try? FastCGIClient.readOutput(fd)
        close(fd)
        let next = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/after")])
        #expect(next.hasSuffix("GET /after body=0 tooLarge=false long=0"))
        #expect(running.stop())
    }

    /// The body reader: short reads are joined, a missing or invalid CONTENT_LENGTH means no body, and the
    /// length alone never decides how much memory is taken.
    @Test func bodiesAreReadByTheirLengthOnly() {
        let source = Array("hello world".utf8)
        func read(_ length: String?, limit: Int = 100, source: [UInt8] = source) -> ([UInt8], Bool) {
            var offset = 0
            return Server.readBody(length: length, limit: limit) { buffer, count in   // one byte at a time
                guard offset < source.count, count > 0 else { return 0 }
                buffer.pointee = CChar(bitPattern: source[offset])
                offset += 1
                return 1
            }
        }
        #expect(read("11").0 == source)
        #expect(read("5").0 == Array("hello".utf8))
        #expect(read(" 11 ").0 == source)
        for invalid in [nil, "", "abc", "-5", "0", "1e3", "99999999999999999999999"] {
            #expect(read(invalid) == ([], false), "CONTENT_LENGTH \(invalid ?? "nil")")
        }
        #expect(read("12") == (source, false))                        // the stream ended early: what arrived
        #expect(read("11", limit: 10) == ([], true))                    // over the limit: drained, not kept
        #expect(read("1000000000000000", limit: .max) == (source, false))   // a huge claim with nothing behind it
    }

    /// libfcgi exit()s when bind fails; the server must refuse such paths itself, with a clear error.
    @Test(arguments: ["/nonexistent-dir/x.sock", "/proc/x.sock", "/tmp/" + String(repeating: "s", count: 120) + ".sock"])
    func aSocketThatCannotBeCreatedIsAClearError(path: String) {
        let server = Server(configuration: ServerConfiguration(socketPath: path), responder: EchoResponder())
        #expect(throws: FastCGIError.cannotOpenSocket(path)) { try server.run() }
    }

    @Test func aRegularFileInTheSocketsPlaceIsNeverDeleted() throws {
        let path = NSTemporaryDirectory() + "not-a-socket-\(UUID().uuidString.prefix(8))"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        defer { unlink(path) }
        let server = Server(configuration: ServerConfiguration(socketPath: path), responder: EchoResponder())
        #expect(throws: FastCGIError.cannotOpenSocket(path)) { try server.run() }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }
}
