// KeysCommand+OpenID.swift: the OpenID Connect provider's signing keys in `frontdoor keys`: `keys show` lists them
// after BrowserID's (kid, the public JWK, dates, whether the JWKS still publishes it), `keys rotate openid` makes a new
// one. After a rotation the previous key stays in the JWKS, and verifies, for `oidc.key_grace`, so ID tokens signed
// just before keep verifying until they expire; every host signs with the new key from its next token on.
// The private key is never printed.
import AccountCore
import ArgumentParser
import Foundation
import WebFront

/// Which key `frontdoor keys rotate` makes anew.
enum KeyPurpose: String, CaseIterable {
    case browserid
    case openid
}

extension KeysCommand {
    /// The OpenID keys of the app's database, or nil when the provider is off (`oidc.enabled: false`).
    static func openIDKeys(_ app: Frontdoor) -> (issuer: String, keys: OpenIDKeys)? {
        guard let openID = app.site.openID else { return nil }
        return (openID.issuer, openID.keys)
    }

    /// The lines `keys show` prints for the OpenID keys.
    static func describeOpenID(_ app: Frontdoor) throws -> [String] {
        guard let (issuer, keys) = openIDKeys(app) else { return ["openid: off (oidc.enabled is false)"] }
        let all = try keys.keys.all(), published = Set(try keys.keys.published(grace: keys.grace).map(\.id))
        guard !all.isEmpty else { return ["openid issuer: \(issuer)", "openid: no key yet (made on the first start)"] }
        var lines = ["openid issuer: \(issuer)"]
        if let current = all.first(where: { $0.retiredAt == nil }) { lines.append("openid public key: \(current.publicKey)") }
        let stamp = ISO8601DateFormatter()
        for key in all {
            let kid = Self.kid(key)
            let state = key.retiredAt.map { "retired \(stamp.string(from: $0))" + (published.contains(key.id) ? ", still in the JWKS" : "") }
                ?? "current"
            lines.append("openid key #\(key.id) (kid \(kid ?? "?")): created \(stamp.string(from: key.createdAt)), \(state)")
        }
        return lines
    }

    /// The OpenID keys for `keys show --json`: issuer and keys (id, kid, publicKey as JWK text, dates, current, published).
    static func openIDJSON(_ app: Frontdoor) throws -> JSONValue {
        guard let (issuer, keys) = openIDKeys(app) else { return .null }
        let published = Set(try keys.keys.published(grace: keys.grace).map(\.id))
        return .object(["issuer": .string(issuer), "keys": .array(try keys.keys.all().map { key in
            .object(["id": .int(key.id), "kid": .text(Self.kid(key)),
                     "publicKey": .string(key.publicKey), "createdAt": .date(key.createdAt), "retiredAt": .date(key.retiredAt),
                     "current": .bool(key.retiredAt == nil), "published": .bool(published.contains(key.id))])
        })])
    }

    /// The kid of a stored key (its public JWK's).
    static func kid(_ key: StoredSigningKey) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(key.publicKey.utf8)) as? [String: Any])?["kid"] as? String
    }

    /// `keys rotate openid`.
    static func rotateOpenID(_ app: Frontdoor) throws {
        guard let (_, keys) = openIDKeys(app) else {
            throw CommandFailure("frontdoor: the OpenID Connect provider is off (oidc.enabled is false)")
        }
        let key = try keys.rotate()
        print("rotated: OpenID key #\(key.id) is now current; the previous one stays in the JWKS for oidc.key_grace")
        print("public key: \(key.publicKey)")
    }
}

extension KeyPurpose: ExpressibleByArgument {}
