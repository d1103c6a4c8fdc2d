// Gate.swift: `GET <base>/auth/check`, nginx's auth_request target. STUB until the gate lands.
import FastCGI

struct Gate: Sendable {
    func check(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
