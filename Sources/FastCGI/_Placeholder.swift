// Temporary stand-in for the FastCGI API until the real module lands (helper deletes this file).
import Foundation
public struct Request: Sendable {
    public var params: [String: String]
    public var body: [UInt8]
    public var bodyTooLarge: Bool
    public init(params: [String: String], body: [UInt8] = [], bodyTooLarge: Bool = false) { self.params = params; self.body = body; self.bodyTooLarge = bodyTooLarge }
    public var method: String { (params["REQUEST_METHOD"] ?? "GET").uppercased() }
    public var uri: String { params["REQUEST_URI"] ?? "/" }
    public var path: String { String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
    public var query: String { params["QUERY_STRING"] ?? "" }
    public func header(_ name: String) -> String? {
        let n = name.uppercased().replacingOccurrences(of: "-", with: "_")
        if n == "CONTENT_TYPE" || n == "CONTENT_LENGTH" { return params[n] }
        return params["HTTP_" + n]
    }
    public var contentType: String? { params["CONTENT_TYPE"] }
    public var remoteAddress: String? { params["REMOTE_ADDR"] }
    public var isHTTPS: Bool { params["HTTPS"]?.lowercased() == "on" }
}
public struct Response: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) { self.status = status; self.headers = headers; self.body = body }
    public init(status: Int = 200, contentType: String, text: String) { self.init(status: status, headers: [(name: "Content-Type", value: contentType)], body: Array(text.utf8)) }
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    public mutating func setHeader(_ name: String, _ value: String) { headers.removeAll { $0.name.lowercased() == name.lowercased() }; headers.append((name, value)) }
    public mutating func addHeader(_ name: String, _ value: String) { headers.append((name, value)) }
}
public protocol Responder: Sendable { func respond(to request: Request) -> Response }
public struct ServerConfiguration: Sendable {
    public init(socketPath: String? = nil, socketMode: UInt32 = 0o660, workers: Int = 8, backlog: Int32 = 128, maxBodyBytes: Int = 65_536) {}
}
public final class Server: Sendable {
    public init(configuration: ServerConfiguration, responder: any Responder) {}
    public static func startedAsCGI() -> Bool { false }
    public func run() throws {}
    public func shutdown() {}
    public func serveCGI(environment: [String: String], input: Int32 = 0, output: Int32 = 1) throws {}
}
