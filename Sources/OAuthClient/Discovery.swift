// Discovery.swift: OpenID Connect metadata for one issuer: the discovery document
// (<issuer>/.well-known/openid-configuration, whose `issuer` must equal the configured one) and the JWKS at its
// jwks_uri, both cached. Options: lifetime (how long either is kept, default 1 h), now (the clock).
// Keys are fetched again, once per check, when an ID token names a kid the cached set lacks (rotation).
// Keys are JOSE's JSONWebKey: keys of other types, for encryption only, or RSA under 2048 bits are skipped.
import Foundation
import JOSE
import Locking

/// The parts of a discovery document the flow uses.
struct DiscoveryDocument: Sendable, Equatable {
    var issuer: String
    var authorizationEndpoint: String
    var tokenEndpoint: String
    /// Empty when the provider has none.
    var userInfoEndpoint: String
    var jwksURI: String
}

/// The cached discovery document and keys of one issuer. Thread-safe.
final class OpenIDMetadata: Sendable {
    let issuer: String
    let http: any HTTPClient
    let lifetime: TimeInterval
    let now: @Sendable () -> Date
    private let cache = Locked<(document: (DiscoveryDocument, Date)?, keys: ([JSONWebKey], Date)?)>((nil, nil))

    init(issuer: String, http: any HTTPClient, lifetime: TimeInterval = 3600, now: @escaping @Sendable () -> Date) {
        self.issuer = issuer
        self.http = http
        self.lifetime = lifetime
        self.now = now
    }

    /// The discovery document, from the cache or fetched and checked.
    func document() throws -> DiscoveryDocument {
        let time = now()
        if let (document, until) = cache.withLock({ $0.document }), until > time { return document }
        let document = try fetchDocument()
        cache.withLock { $0.document = (document, time.addingTimeInterval(lifetime)) }
        return document
    }

    /// The issuer's signing keys; `refetch` ignores the cache (a kid was not found in it).
    func keys(refetch: Bool = false) throws -> [JSONWebKey] {
        let time = now()
        if !refetch, let (keys, until) = cache.withLock({ $0.keys }), until > time { return keys }
        let uri = try document().jwksURI
        let set = try http.getObject(uri, what: "JWKS \(uri)")
        guard let items = set["keys"]?.array else { throw OAuthError.invalidResponse("JWKS \(uri) has no keys list") }
        let keys = items.compactMap { item in item.object.flatMap { try? JSONWebKey(members: $0.compactMapValues(\.string)) } }
        cache.withLock { $0.keys = (keys, time.addingTimeInterval(lifetime)) }
        return keys
    }

    private func fetchDocument() throws -> DiscoveryDocument {
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        let url = base + "/.well-known/openid-configuration"
        let members = try http.getObject(url, what: "discovery document \(url)")
        guard let stated = members["issuer"]?.string, stated == issuer else {
            throw OAuthError.invalidResponse("discovery document \(url) names issuer \(members["issuer"]?.string ?? "(none)"), not \(issuer)")
        }
        func endpoint(_ name: String, required: Bool = true) throws -> String {
            guard let value = members[name]?.string, !value.isEmpty else {
                if required { throw OAuthError.invalidResponse("discovery document \(url) has no \(name)") }
                return ""
            }
            guard ProviderURL.isAllowed(value) else {
                throw OAuthError.invalidResponse("discovery document \(url): \(name) \(value) is neither https nor loopback http")
            }
            return value
        }
        return DiscoveryDocument(issuer: stated, authorizationEndpoint: try endpoint("authorization_endpoint"),
                                 tokenEndpoint: try endpoint("token_endpoint"),
                                 userInfoEndpoint: try endpoint("userinfo_endpoint", required: false), jwksURI: try endpoint("jwks_uri"))
    }
}
