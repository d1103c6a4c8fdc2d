// AccountSwitchAction.swift: TODO(lead).
import AccountCore
import FastCGI

struct AccountSwitchAction: Sendable {
    func submit(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
