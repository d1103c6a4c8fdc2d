// Response.swift: what a page answers: status, headers in order, body. The adapter (Frontdoor+FastCGI.swift) hands it
// to the transport, which writes it.

/// A response. Headers keep their order and a name may repeat (Set-Cookie).
public struct Response: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Headers in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes, sent as they are.
    public var body: [UInt8]

    /// A response from its parts; 200 with no headers and no body by default.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` in UTF-8 with the given Content-Type.
    public init(status: Int = 200, contentType: String, text: String) {
        self.init(status: status, headers: [(name: "Content-Type", value: contentType)], body: Array(text.utf8))
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// Replaces every header called `name` with one.
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { Self.sameName($0.name, name) }
        headers.append((name: name, value: value))
    }

    /// Adds a header, keeping others of the same name.
    public mutating func addHeader(_ name: String, _ value: String) {
        headers.append((name: name, value: value))
    }

    /// Header names compared without ASCII case, without allocating.
    private static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20)) }
    }
}
