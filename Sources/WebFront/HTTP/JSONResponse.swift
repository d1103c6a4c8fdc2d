// JSONResponse.swift: JSON answers for the APIs (verifier, certificate signing): one encoder, one content type.
// The bytes are JSONSerialization's (keys sorted, slashes unescaped), written by JSONWriter, which costs a fraction of it
// and falls back to it for any value it does not know.

extension Response {
    /// `object` as `application/json` (keys sorted, slashes unescaped) with `status`.
    static func json(_ object: [String: Any], status: Int = 200) -> Response {
        Response(status: status, headers: [(name: "Content-Type", value: "application/json")], body: JSONWriter.bytes(object))
    }
}
