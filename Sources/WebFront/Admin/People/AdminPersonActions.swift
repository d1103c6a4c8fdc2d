// AdminPersonActions.swift: (being written)
import AccountCore

struct AdminPersonActions: Sendable {
    init(_ core: AccountServices) {}
    func revokeSession(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func revokeSessions(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func unlink(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func resetSecondFactor(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func changeGroups(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func lock(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func unlock(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func sendPasswordReset(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func resendConfirmation(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func confirm(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func showDelete(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func delete(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
