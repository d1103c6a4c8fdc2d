// ProviderTokenAPI.swift: `GET <base>/internal/provider_token`: the operator's backend reads a provider token.
import AccountCore
import FastCGI

struct ProviderTokenAPI: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
