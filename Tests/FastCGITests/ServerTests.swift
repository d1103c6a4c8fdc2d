import Foundation
import Testing
@testable import FastCGI

/// Echoes what it was given, so the tests can see what the server built.
struct EchoResponder: Responder {
    func respond(to request: Request) -> Response {
        Response(status: 200, contentType: "text/plain",
                 text: "\(request.method) \(request.path) body=\(request.body.count) tooLarge=\(request.bodyTooLarge) long=\(request.params["LONG"]?.count ?? 0)")
    }
}

/// A server on a fresh unix socket, served from a background thread until `stop()`.
final class RunningServer: @unchecked Sendable {
    let path = NSTemporaryDirectory() + "fcgi-test-\(UUID().uuidString.prefix(8)).sock"
    let server: Server
    let done = DispatchSemaphore(value: 0)

    init(maxBodyBytes: Int = 65_536, workers: Int = 2) throws {
        server = Server(configuration: ServerConfiguration(socketPath: path, socketMode: 0o600, workers: workers, maxBodyBytes: maxBodyBytes),
                        responder: EchoResponder())
        Thread { [server, done] in
            try? server.run()
            done.signal()
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
        let returned = done.wait(timeout: .now() + 10) == .success
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
        let running = try RunningServer(workers: 3)
        for i in 0..<50 {
            let output = try running.send([("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/n\(i)")])
            #expect(output.hasSuffix("GET /n\(i) body=0 tooLarge=false long=0"))
        }
        #expect(running.stop())
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
