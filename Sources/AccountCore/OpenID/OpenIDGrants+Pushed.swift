// OpenIDGrants+Pushed.swift: pushed authorization requests (RFC 9126): a client posts its authorization parameters
// first and sends the browser with only `request_uri` and `client_id`.
//
// Options: `pushed_request_lifetime` (OpenIDPolicy). The request URI is `urn:ietf:params:oauth:request_uri:` and 32
// random bytes (base64url); only their SHA-256 is stored. A request is read only by the client that pushed it, until it
// expires or is used (once: conditional UPDATE).
import Foundation

extension OpenIDGrants {
    public static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    /// Stores `parameters` for `client`; returns the request URI and its lifetime in seconds.
    public func pushRequest(client: OpenIDClient, parameters: [String: String]) throws -> (requestURI: String, expiresIn: Int) {
        let token = SecretToken(random: random)
        let now = clock.now()
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys]), as: UTF8.self)
        try database.write { tx in
            try tx.insertOpenIDPushedRequest(digest: token.digest, clientId: client.id, parameters: json, now: now,
                                             expiresAt: now + policy.pushedRequestLifetime)
        }
        return (Self.requestURIPrefix + token.encoded, Int(policy.pushedRequestLifetime))
    }

    /// The parameters pushed as `requestURI` by `clientID`, unexpired and unused; nil otherwise.
    public func pushedRequest(_ requestURI: String, clientID: String) throws -> [String: String]? {
        guard let digest = Self.pushedDigest(requestURI) else { return nil }
        let now = clock.now()
        guard let json = try database.read({ tx in try tx.openIDPushedRequest(digest: digest, clientId: clientID, now: now) }) else { return nil }
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
    }

    /// Uses the pushed request up; false when it was used already (or is unknown).
    @discardableResult
    public func markPushedRequestUsed(_ requestURI: String) throws -> Bool {
        guard let digest = Self.pushedDigest(requestURI) else { return false }
        let now = clock.now()
        return try database.write { tx in try tx.useOpenIDPushedRequest(digest: digest, now: now) }
    }

    static func pushedDigest(_ requestURI: String) -> Data? {
        guard requestURI.hasPrefix(requestURIPrefix) else { return nil }
        return SecretToken(encoded: String(requestURI.dropFirst(requestURIPrefix.count)))?.digest
    }
}
