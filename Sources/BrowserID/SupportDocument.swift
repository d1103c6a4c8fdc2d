// SupportDocument.swift: `/.well-known/browserid`: a public key with the authentication and provisioning paths,
// a delegation to another authority, or a disabled marker. "keys" (several published keys, for rollover) is read
// and written besides "public-key" (which is all PyBrowserID reads).
import Foundation

/// What an identity provider publishes about itself.
public enum SupportDocument: Sendable, Equatable {
    case support(publicKey: PublicKey, keys: [PublicKey], authentication: String, provisioning: String)
    case authority(String)
    case disabled

    /// Parses the JSON document.
    public init(data: [UInt8]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any] else {
            throw BrowserIDError(reason: "support document is not a JSON object")
        }
        if object["disabled"] as? Bool == true { self = .disabled; return }
        if let authority = object["authority"] as? String {
            guard !authority.isEmpty, authority.count <= 255 else { throw BrowserIDError(reason: "malformed authority") }
            self = .authority(authority.lowercased()); return
        }
        guard let keyObject = object["public-key"] as? [String: Any] else { throw BrowserIDError(reason: "support document missing public-key") }
        guard let authentication = object["authentication"] as? String, let provisioning = object["provisioning"] as? String else {
            throw BrowserIDError(reason: "support document missing required authentication or provisioning")
        }
        let key = try PublicKey(jsonObject: keyObject)
        let others = (object["keys"] as? [[String: Any]] ?? []).compactMap { try? PublicKey(jsonObject: $0) }
        self = .support(publicKey: key, keys: [key] + others.filter { $0 != key },
                        authentication: authentication, provisioning: provisioning)
    }

    /// The JSON document.
    public var jsonData: [UInt8] {
        let object: [String: Any]
        switch self {
        case let .support(key, keys, authentication, provisioning):
            object = ["public-key": key.json, "keys": keys.map(\.json), "authentication": authentication, "provisioning": provisioning]
        case let .authority(host): object = ["authority": host]
        case .disabled: object = ["disabled": true]
        }
        return [UInt8]((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    /// Every key that may have signed: "public-key" first.
    var verificationKeys: [PublicKey] {
        if case let .support(key, keys, _, _) = self { return [key] + keys.filter { $0 != key } }
        return []
    }
}

/// Where a verifier gets support documents (over HTTPS, from a database, from a table in tests).
public protocol SupportDocumentSource: Sendable {
    /// The document `issuer` (a host, with `:port` when not the default) publishes; throws with the reason it can't be had.
    func supportDocument(for issuer: String) throws -> SupportDocument
    /// The same, given up at `deadline` (the verification's): a source that waits on the network cuts its wait there,
    /// and throws FetchesBusy when it is fetching too much at once to start another fetch.
    func supportDocument(for issuer: String, before deadline: Date) throws -> SupportDocument
}

extension SupportDocumentSource {
    /// A source that never waits (a table, the database) has no deadline to keep.
    public func supportDocument(for issuer: String, before deadline: Date) throws -> SupportDocument {
        try supportDocument(for: issuer)
    }
}
