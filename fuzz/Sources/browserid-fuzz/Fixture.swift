// Fixture.swift: what every browserid-fuzz run verifies against: an in-memory SupportDocumentSource (example.com
// publishes the issuer key; other.example delegates to it; a disabled host; a delegation loop), the verification
// time, the relying party, and the seed assertions signed with the real signing code.
import BrowserID
import Foundation

struct Fixture: Sendable {
    static let issuer = "example.com"
    static let audience = "https://rp.example.com"
    /// The addresses the seeds are certified for: no other may ever verify.
    static let emails: Set<String> = ["alice@example.com", "bob@other.example"]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let issuerKey: RSASigningKey
    let userKey: RSASigningKey
    let verifier: Verifier

    init() {
        issuerKey = try! RSASigningKey(pemRepresentation: FuzzKeys.issuerPEM)
        userKey = try! RSASigningKey(pemRepresentation: FuzzKeys.userPEM)
        let documents: [String: SupportDocument] = [
            Self.issuer: .support(publicKey: issuerKey.publicKey, keys: [issuerKey.publicKey], authentication: "/auth", provisioning: "/provision"),
            "other.example": .authority(Self.issuer),
            "off.example": .disabled,
            "loop.example": .authority("loop2.example"),
            "loop2.example": .authority("loop.example"),
        ]
        // Every legacy algorithm on, so mutated DSA and small RSA keys reach libcrypto too (issue 22).
        verifier = Verifier(source: TableSource(documents: documents),
                            policy: VerifierPolicy(trustedSecondaries: ["broker.example"], legacyAlgorithms: VerifierPolicy.legacyAlgorithms))
    }

    /// Backed assertions the way a browser sends them: a certificate for `email` by example.com, and an assertion for
    /// the relying party, both valid at `now`.
    func seedBundles() throws -> [(email: String, bundle: String)] {
        try Self.emails.sorted().map { email in
            let certificate = try IdentityCertificate.sign(email: email, publicKey: userKey.publicKey, issuer: Self.issuer,
                                                           issuedAt: Self.now.addingTimeInterval(-60),
                                                           expiresAt: Self.now.addingTimeInterval(3600), key: issuerKey)
            let assertion = try IdentityAssertion.sign(audience: Self.audience, expiresAt: Self.now.addingTimeInterval(120), key: userKey)
            return (email, IdentityAssertion.bundle(certificates: [certificate], assertion: assertion))
        }
    }
}

/// Support documents from a table; any other host has none.
struct TableSource: SupportDocumentSource {
    let documents: [String: SupportDocument]

    func supportDocument(for issuer: String) throws -> SupportDocument {
        guard let document = documents[issuer] else { throw BrowserIDError(reason: "no support document for \(issuer)") }
        return document
    }
}
