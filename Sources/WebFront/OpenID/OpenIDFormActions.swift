// OpenIDFormActions.swift: the security headers once the OpenID provider is on, their form-action widened to where the
// provider sends browsers back. Browsers apply form-action to the redirects that follow a form (Chromium does): signing
// in, the second step, "confirm it's you", the consent page and the logout confirmation each post a form whose answer
// redirects on to an app's redirect_uri or post_logout_redirect_uri, and `form-action 'self'` alone stops the person
// there. So form-action names the origins of every registered client's URIs (and, for a native app's private-use
// scheme such as `com.example.app:/callback`, that scheme): an operator's apps, trusted as the social providers are.
//
// Options: `refresh`, how stale the database's clients may be (30 s): the config file's are known at start, and those
// `frontdoor client add` stores are read again at most that often, so a client added on any host works everywhere within
// it. A storage failure keeps the last list (the next request tries again after `refresh`).
import AccountCore
import Foundation
import Locking

/// The response headers with the clients' origins in form-action; `values()` is what the responder applies.
final class OpenIDFormActions: Sendable {
    static let refresh: TimeInterval = 30

    private let clients: OpenIDClients
    private let clock: any Clock
    private let formActions: [String]
    private let images: [String]
    private let state = Locked<(headers: [(String, String)], readAt: Date?)>((SecurityHeaders.values, nil))

    /// `formActions` and `images`: the origins the site adds anyway (social providers, the logo).
    init(clients: OpenIDClients, clock: any Clock, formActions: [String], images: [String]) {
        self.clients = clients
        self.clock = clock
        self.formActions = formActions
        self.images = images
    }

    /// The headers, read again from the clients when the last reading is older than `refresh`.
    func values() -> [(String, String)] {
        let now = clock.now()
        let (headers, readAt) = state.withLock { ($0.headers, $0.readAt) }
        if let readAt, now.timeIntervalSince(readAt) < Self.refresh, now >= readAt { return headers }
        guard let all = try? clients.all() else {
            state.withLock { $0.readAt = now }   // keep the last list; try again after `refresh`
            return readAt == nil ? SecurityHeaders.values(formActions: formActions, images: images) : headers
        }
        let fresh = SecurityHeaders.values(formActions: formActions + Self.sources(all), images: images)
        state.withLock { $0 = (fresh, now) }
        return fresh
    }

    /// CSP sources for the clients' redirect and post-logout URIs: http(s) origins and private-use schemes, each once, sorted.
    static func sources(_ clients: [OpenIDClient]) -> [String] {
        var sources = Set<String>()
        for client in clients {
            for uri in client.redirectURIs + client.postLogoutRedirectURIs {
                if client.isPublic, OpenIDClient.loopbackWithoutPort(uri) != nil, let host = URLComponents(string: uri)?.host {
                    // A native app's loopback redirect comes back on any port (OpenIDClient.allowsRedirect).
                    sources.insert("http://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":*")
                } else if let origin = SecurityHeaders.origin(of: uri) {
                    sources.insert(origin)
                } else if let colon = uri.firstIndex(of: ":"), uri.first?.isLetter == true,
                          uri[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                    sources.insert(uri[..<colon].lowercased() + ":")
                }
            }
        }
        return sources.sorted()
    }
}
