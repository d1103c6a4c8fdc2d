// OpenIDMetadataPages.swift: the provider's public metadata: `.well-known/openid-configuration` (the discovery document,
// built once per issuer) and `oidc/jwks` (the current key and the keys retired within oidc.key_grace, rebuilt when the
// published key ids change). Both GET pages answering JSON to anyone: `Access-Control-Allow-Origin: *` (browser
// clients fetch them too) and a short cache, so a rotation reaches relying parties within minutes (they also refetch
// on an unknown kid). Present only when the provider is on (`oidc.enabled`); without `site.openID` they answer 404.
import AccountCore
import Foundation
import Locking

/// `GET .well-known/openid-configuration` and `GET oidc/jwks`.
final class OpenIDMetadataPages: Sendable {
    /// How long clients may keep either document.
    static let cacheControl = "public, max-age=300"

    // The signing keys are the site's (`site.openID.keys`); no core operation is used.
    private let discovery = Locked<(issuer: String, json: [UInt8])?>(nil)

    init(_ core: AccountServices) {}

    func configuration(_ context: RequestContext) throws -> Response {
        guard let openID = context.site.openID else { throw HTTPError.notFound }
        let json: [UInt8]
        if let cached = discovery.withLock({ $0 }), cached.issuer == openID.issuer {
            json = cached.json
        } else {
            json = try OpenIDDiscovery.json(issuer: openID.issuer)
            discovery.withLock { $0 = (openID.issuer, json) }
        }
        return Self.json(json)
    }

    func jwks(_ context: RequestContext) throws -> Response {
        guard let openID = context.site.openID else { throw HTTPError.notFound }
        return Self.json(Array(try openID.keys.jwksJSON()))
    }

    static func json(_ body: [UInt8]) -> Response {
        var response = Response(status: 200, headers: [(name: "Content-Type", value: "application/json")], body: body)
        response.setHeader("Cache-Control", cacheControl)
        response.setHeader("Access-Control-Allow-Origin", "*")
        return response
    }
}
