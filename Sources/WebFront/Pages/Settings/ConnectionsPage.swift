// ConnectionsPage.swift: `GET <base>/settings/connections`: linked providers; `POST …/unlink`.
import AccountCore
import FastCGI

struct ConnectionsPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func unlink(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
