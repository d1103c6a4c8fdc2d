// OpenIDClientRules.swift: the checks `frontdoor client add` makes before a client is stored: the same rules as the
// config file's `oidc.clients` (OpenIDClientsConfig), worded as one line naming the option (--redirect-uri …).
import AccountCore
import OAuthClient

/// What makes an OpenID Connect client acceptable, for the command line.
public enum OpenIDClientRules {
    /// The first problem with `client`, worded for the terminal (after "frontdoor: "); nil when it may be stored.
    public static func problem(in client: OpenIDClient) -> String? {
        guard OpenIDClientsConfig.isValidID(client.id) else {
            return "a client id is 1 to 64 of A-Z, a-z, 0-9, ., _ and - (got \"\(client.id)\")"
        }
        guard (1...60).contains(client.name.count), !client.name.contains(where: \.isNewline) else { return "--name must be 1 to 60 characters on one line" }
        guard !client.redirectURIs.isEmpty else { return "give at least one --redirect-uri" }
        let schemes = client.isPublic ? ", or a private-use scheme with a dot (com.example.app:/callback)" : ""
        for (option, uris) in [("--redirect-uri", client.redirectURIs), ("--post-logout-redirect-uri", client.postLogoutRedirectURIs)] {
            guard uris.count <= OpenIDClientsConfig.maximumURIs else { return "at most \(OpenIDClientsConfig.maximumURIs) of \(option)" }
            if let bad = uris.first(where: { !OpenIDClientsConfig.isRedirectURI($0, allowingPrivateScheme: client.isPublic) }) {
                return "\(option) \"\(bad)\" must be an https URL, http on a loopback host\(schemes), without a fragment"
            }
        }
        if let unknown = client.scopes.first(where: { !OpenIDClientsConfig.knownScopes.contains($0) }) {
            return "--scope \"\(unknown)\" is not offered (known: \(OpenIDClientsConfig.knownScopes.joined(separator: " ")))"
        }
        guard client.scopes.contains("openid") else { return "--scope must include openid" }
        for entry in GateRule(client.allow).entries {
            if case .unknown(let word) = entry { return "--allow \"\(word)\" is neither an address, a domain nor group:NAME" }
        }
        if let uri = client.backchannelLogoutURI, !ProviderURL.isAllowed(uri) || uri.contains("#") {
            return "--backchannel-logout-uri \"\(uri)\" must be an https URL, or http on a loopback host, without a fragment"
        }
        return nil
    }

    /// The scopes a client gets when none are given.
    public static var defaultScopes: [String] { OpenIDClientsConfig.knownScopes }
}
