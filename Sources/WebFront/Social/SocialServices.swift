// SocialServices.swift: the configured sign-in providers, built once at start-up (config `social.providers`).
import Foundation
import OAuthClient

/// The providers by id, in the order the operator declared them (the order of the buttons).
public final class SocialServices: Sendable {
    public let providers: [OAuthProvider]

    public init(providers: [OAuthProvider]) { self.providers = providers }

    /// No providers (page tests, and sites that configure none).
    public static let none = SocialServices(providers: [])

    /// One `OAuthProvider` per configured provider, calling out through libcurl (or `http`, in tests).
    public static func make(configuration: AppConfiguration, http: (any HTTPClient)? = nil,
                            now: @escaping @Sendable () -> Date = { Date() }) -> SocialServices {
        let client = http ?? CurlHTTPClient(timeout: configuration.social.httpTimeout)
        return SocialServices(providers: configuration.social.providers.map { OAuthProvider(configuration: $0, http: client, now: now) })
    }

    /// The provider with `id`.
    public func provider(_ id: String) -> OAuthProvider? { providers.first { $0.configuration.id == id } }

    public var isEmpty: Bool { providers.isEmpty }

    /// The origins the provider buttons' redirects go to, for the pages' CSP form-action: each provider's authorization
    /// endpoint (override or preset), or for OpenID Connect without an override its issuer's origin (where the
    /// discovery document almost always puts it; set `authorization_endpoint` when it does not).
    public var formActionOrigins: [String] {
        var origins: [String] = []
        for provider in providers.map(\.configuration) {
            let url = provider.authorizationEndpoint.isEmpty ? provider.issuer : provider.authorizationEndpoint
            guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host, !host.isEmpty else { continue }
            let origin = scheme + "://" + (host.contains(":") ? "[\(host)]" : host) + (parts.port.map { ":\($0)" } ?? "")
            if !origins.contains(origin) { origins.append(origin) }
        }
        return origins
    }
}
