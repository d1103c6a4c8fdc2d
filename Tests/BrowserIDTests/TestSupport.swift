// TestSupport.swift: a support-document table standing in for the network, and fixed times.
import Foundation
@testable import BrowserID

/// Support documents by issuer; unknown issuers fail like an unreachable host.
struct StaticDocuments: SupportDocumentSource {
    var documents: [String: SupportDocument]

    func supportDocument(for issuer: String) throws -> SupportDocument {
        guard let document = documents[issuer] else { throw BrowserIDError(reason: "can't get public key for \(issuer): no such host") }
        return document
    }

    static func support(_ key: PublicKey) -> SupportDocument {
        .support(publicKey: key, keys: [key], authentication: "/auth", provisioning: "/provision")
    }
}

/// Shared keys (RSA generation is slow: made once per test process).
enum Keys {
    static let issuer = try! RSASigningKey.generate()
    static let other = try! RSASigningKey.generate()
    static let user = try! RSASigningKey.generate()
}

let now = Date(timeIntervalSince1970: 1_800_000_000)
