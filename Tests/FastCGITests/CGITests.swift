import Foundation
import Testing
@testable import FastCGI

@Suite(.serialized)
struct CGITests {
    /// Runs `serveCGI` with `input` on a pipe and returns what it wrote to the output pipe.
    func serve(_ environment: [String: String], input: [UInt8] = [], maxBodyBytes: Int = 65_536) throws -> String {
        let stdin = Pipe(), stdout = Pipe()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let server = Server(configuration: ServerConfiguration(maxBodyBytes: maxBodyBytes), responder: EchoResponder())
        try server.serveCGI(environment: environment, input: stdin.fileHandleForReading.fileDescriptor,
                            output: stdout.fileHandleForWriting.fileDescriptor)
        try stdout.fileHandleForWriting.close()
        return String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func answersTheOneRequestInTheEnvironment() throws {
        let output = try serve(["REQUEST_METHOD": "GET", "REQUEST_URI": "/x"])
        let body = "GET /x body=0 tooLarge=false long=0"
        #expect(output == "Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    @Test func readsTheBodyFromStandardInput() throws {
        let output = try serve(["REQUEST_METHOD": "POST", "REQUEST_URI": "/p", "CONTENT_LENGTH": "11"], input: Array("hello world".utf8))
        #expect(output.hasSuffix("POST /p body=11 tooLarge=false long=0"))
    }

    @Test func aShortBodyIsCutToWhatArrived() throws {
        let output = try serve(["REQUEST_METHOD": "POST", "REQUEST_URI": "/p", "CONTENT_LENGTH": "100"], input: Array("short".utf8))
        #expect(output.hasSuffix("POST /p body=5 tooLarge=false long=0"))
    }

    @Test func aBodyOverTheLimitIsMarked() throws {
        let output = try serve(["REQUEST_METHOD": "POST", "REQUEST_URI": "/p", "CONTENT_LENGTH": "2000"],
                               input: [UInt8](repeating: 7, count: 2000), maxBodyBytes: 1024)
        #expect(output.hasSuffix("POST /p body=0 tooLarge=true long=0"))
    }

    @Test func withoutARequestItRefusesClearly() {
        let server = Server(configuration: ServerConfiguration(), responder: EchoResponder())
        #expect(throws: FastCGIError.notAWebServerRequest) { try server.serveCGI(environment: [:]) }
    }
}
