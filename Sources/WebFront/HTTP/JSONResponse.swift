// JSONResponse.swift: JSON answers for the APIs (verifier, certificate signing): one encoder, one content type.
import Foundation

extension Response {
    /// `object` as `application/json` (keys sorted, slashes unescaped) with `status`.
    static func json(_ object: [String: Any], status: Int = 200) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(status: status, headers: [(name: "Content-Type", value: "application/json")], body: [UInt8](data))
    }
}
