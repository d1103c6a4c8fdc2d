// APIFuzz.swift: the properties api-fuzz checks: whole JSON API requests through Frontdoor.respond(to:). The first byte
// picks the route and method, the second the headers (bit 0: the fixture's X-User-Email/X-User-Token; bits 1-2: the
// content type; bit 3: Accept-Language fr), the rest is the body. Every answer is JSON (an object), below 500, sets no
// cookie; a non-JSON body under application/json is a 400; the field reading (`fields(of:root:)`) gives snake_case
// names and text values.
import Foundation
import FuzzSupport
import WebFront

enum APIFuzz {
    static let fixture = try! Fixture()
    /// (method, route, may end the fixture's token)
    static let routes: [(String, String, Bool)] = [
        ("POST", "users", false), ("PUT", "users", true), ("DELETE", "users", true), ("POST", "users/sign_in", false),
        ("DELETE", "users/sign_out", true), ("POST", "users/password", false), ("PUT", "users/password", true),
        ("POST", "residences", false), ("GET", "users", false), ("POST", "nowhere", false),
        ("POST", "users/sign_in/second_factor", false),
    ]
    static let contentTypes: [String?] = ["application/json", "Application/JSON; charset=utf-8", "text/plain", nil]

    static func run(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let (method, route, ending) = routes[Int(bytes[0]) % routes.count]
        let flags = bytes[1], body = Array(bytes.dropFirst(2))
        let credentials = flags & 1 == 1, contentType = contentTypes[Int(flags >> 1) & 3]
        let request = fixture.request(method, route, body: body, contentType: contentType, credentials: credentials,
                                      language: flags & 8 == 8 ? "fr" : nil)
        let response = fixture.app.respond(to: request)
        checkAnswer(response, "\(method) \(route)")

        let blank = body.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
        let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        if !blank, method == "POST", route != "nowhere" {   // the routes that read the body before anything else
            if contentType?.lowercased().hasPrefix("application/json") != true {
                require(response.status == 415, "\(method) \(route): a \(contentType ?? "missing") body answered \(response.status)")
            } else if object == nil {
                require(response.status == 400, "\(method) \(route): a non-object body answered \(response.status)")
            }
        }
        if let object { checkFields(object) }
        if credentials && ending { fixture.restore() }
    }

    /// Any API answer: JSON object, no server error, no cookie.
    static func checkAnswer(_ response: Response, _ what: String) {
        require(response.status >= 200 && response.status < 500, "\(what) answered \(response.status): \(Fuzz.text(response.body))")
        require(response.header("Set-Cookie") == nil, "\(what) set a cookie")
        require(response.header("Content-Type")?.hasPrefix("application/json") == true, "\(what) answered \(response.header("Content-Type") ?? "no type")")
        require((try? JSONSerialization.jsonObject(with: Data(response.body))) is [String: Any], "\(what) answered non-JSON")
    }

    /// `fields(of:root:)`: names are snake_case (no ASCII capital), one per string or number value of the root object.
    static func checkFields(_ object: [String: Any]) {
        for root in ["user", nil] as [String?] {
            let fields = APIContext.fields(of: object, root: root)
            let source = root.flatMap { object[$0] as? [String: Any] } ?? (root == nil ? object : [:])
            require(fields.count <= source.count, "more fields than keys")
            for name in fields.keys {
                require(!name.unicodeScalars.contains { (0x41...0x5A).contains($0.value) }, "field \(name.debugDescription) has a capital")
                require(APIContext.snakeCase(name) == name, "snakeCase is not idempotent on \(name.debugDescription)")
            }
            for (key, value) in source where value is String { require(fields[APIContext.snakeCase(key)] != nil, "a string field was dropped") }
        }
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) { Fuzz.require(condition, "api-fuzz", message()) }
}
