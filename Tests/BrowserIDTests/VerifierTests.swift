// VerifierTests.swift: every verdict of the verifier and its reason, and the known-answer vectors from PyBrowserID/openssl.
import Foundation
import Testing
@testable import BrowserID

struct VerifierTests {
    let documents = StaticDocuments(documents: [
        "idp.example": StaticDocuments.support(Keys.issuer.publicKey),
        "delegating.example": .authority("idp.example"),
        "loop-a.example": .authority("loop-b.example"),
        "loop-b.example": .authority("loop-a.example"),
        "off.example": .disabled,
    ])

    func verifier(trusting: Set<String> = [], leeway: TimeInterval = 0) -> Verifier {
        Verifier(source: documents, policy: VerifierPolicy(trustedSecondaries: trusting, leeway: leeway))
    }

    func assertion(email: String = "ann@idp.example", issuer: String = "idp.example", signer: RSASigningKey = Keys.issuer,
                   certifiedKey: RSASigningKey = Keys.user, assertionKey: RSASigningKey = Keys.user,
                   audience: String = "https://rp.example", expires: Date = now.addingTimeInterval(120),
                   certificateExpires: Date = now.addingTimeInterval(3600)) throws -> String {
        let certificate = try IdentityCertificate.sign(email: email, publicKey: certifiedKey.publicKey, issuer: issuer,
                                                       issuedAt: now.addingTimeInterval(-60), expiresAt: certificateExpires, key: signer)
        return IdentityAssertion.bundle(certificates: [certificate],
                                        assertion: try IdentityAssertion.sign(audience: audience, expiresAt: expires, key: assertionKey))
    }

    func reason(_ result: VerificationResult) -> String? {
        if case let .failure(reason) = result { return reason }
        return nil
    }

    @Test func aPrimaryIssuersAssertionIsOkay() throws {
        let result = verifier().verify(assertion: try assertion(), audience: "https://rp.example:443", now: now)
        #expect(result == .okay(email: "ann@idp.example", audience: "https://rp.example:443",
                                expires: Int64(now.addingTimeInterval(120).timeIntervalSince1970 * 1000), issuer: "idp.example"))
    }

    @Test func secondariesAndDelegationsMaySpeakForOtherDomains() throws {
        let gmail = try assertion(email: "bob@gmail.example")
        #expect(reason(verifier().verify(assertion: gmail, audience: "https://rp.example", now: now))
                == "issuer 'idp.example' may not speak for emails from 'gmail.example'")
        #expect(reason(verifier(trusting: ["IDP.example"]).verify(assertion: gmail, audience: "https://rp.example", now: now)) == nil)
        let delegated = try assertion(email: "cy@delegating.example")
        #expect(reason(verifier().verify(assertion: delegated, audience: "https://rp.example", now: now)) == nil)
    }

    @Test func timesAreChecked() throws {
        let expired = try assertion(expires: now.addingTimeInterval(-1))
        #expect(reason(verifier().verify(assertion: expired, audience: "https://rp.example", now: now)) == "assertion has expired")
        #expect(reason(verifier(leeway: 30).verify(assertion: expired, audience: "https://rp.example", now: now)) == nil)
        let oldCertificate = try assertion(certificateExpires: now.addingTimeInterval(-1))
        #expect(reason(verifier().verify(assertion: oldCertificate, audience: "https://rp.example", now: now)) == "certificate has expired")
    }

    @Test func forgeriesAreRefused() throws {
        let forgedCertificate = try assertion(signer: Keys.other)
        #expect(reason(verifier().verify(assertion: forgedCertificate, audience: "https://rp.example", now: now)) == "bad signature in chain")
        let forgedAssertion = try assertion(assertionKey: Keys.other)
        #expect(reason(verifier().verify(assertion: forgedAssertion, audience: "https://rp.example", now: now)) == "invalid signature")
        let good = try assertion()
        let swapped = good.split(separator: "~").map(String.init)
        let tampered = swapped[0] + "~" + swapped[1].dropLast(2) + (swapped[1].hasSuffix("AA") ? "BA" : "AA")
        #expect(reason(verifier().verify(assertion: tampered, audience: "https://rp.example", now: now)) != nil)
    }

    @Test func malformedBundlesHaveTheirReasons() throws {
        let good = try assertion().split(separator: "~").map(String.init)
        let v = verifier()
        #expect(reason(v.verify(assertion: good[1], audience: "https://rp.example", now: now)) == "no certificates provided")
        #expect(reason(v.verify(assertion: "garbage", audience: "https://rp.example", now: now)) == "malformed backed assertion")
        #expect(reason(v.verify(assertion: good[0] + "~" + good[0] + "~" + good[1], audience: "https://rp.example", now: now))
                == "certificate chaining is not yet allowed")
        #expect(reason(v.verify(assertion: "a.b.c~" + good[1], audience: "https://rp.example", now: now)) == "malformed signature")
    }

    @Test func issuersThatCannotBeResolvedFail() throws {
        for issuer in ["off.example", "loop-a.example", "nowhere.example"] {
            let result = verifier(trusting: [issuer]).verify(assertion: try assertion(issuer: issuer), audience: "https://rp.example", now: now)
            #expect(reason(result)?.hasPrefix("can't get public key for \(issuer)") == true, "\(issuer): \(result)")
        }
    }

    @Test(arguments: [
        ("https://rp.example", "https://rp.example", nil), ("https://rp.example", "https://rp.example:443", nil),
        ("https://rp.example:443", "https://rp.example", nil), ("http://rp.example:8080", "rp.example:8080", nil),
        ("https://rp.example", "rp.example", nil), ("app://rp.example", "app://rp.example", nil),
        ("https://rp.example", "http://rp.example", "scheme mismatch"), ("https://rp.example", "https://www.rp.example", "domain mismatch"),
        ("https://rp.example", "https://rp.example:8443", "port mismatch"), ("http://rp.example:8080", "rp.example:8081", "port mismatch"),
        ("rp.example", "https://rp.example", "malformed domain"), ("https://rp.example", "https://rp.example/path", "malformed domain"),
        ("https://rp.example/", "https://rp.example", nil), ("https://[::1]:8443", "https://[::1]:8443", nil),
        ("https://[::1]", "https://[::1]:443", nil), ("https://rp_1.example", "https://RP_1.example", nil),
        ("https://ré.example", "https://ré.example", "malformed domain"), ("https://rp.example:0", "https://rp.example", "malformed domain"),
        ("https://rp.example//", "https://rp.example", "malformed domain"), ("https://rp.example", "rp.example:", "malformed domain"),
        ("https://rp.example", "https://rp.exa mple", "malformed domain"), ("HTTPS://RP.example", "https://rp.example:443", nil),
    ] as [(String, String, String?)])
    func audiences(assertion: String, expected: String, mismatch: String?) {
        #expect(Audience.mismatch(assertion: assertion, expected: expected) == mismatch)
    }

    /// What an operator sets with `browserid.legacy_algorithms: DS128, DS256` for an old identity provider.
    let legacy = VerifierPolicy(legacyAlgorithms: ["DS128", "DS256"])

    @Test func legacyAlgorithmsAreRefusedByDefault() throws {
        let cases = [("idp.example.org", KnownAnswerVectors.ds128IssuerKey, KnownAnswerVectors.ds128Assertion, "certificate signed with DS128"),
                     ("ds256.example", KnownAnswerVectors.ds256IssuerKey, KnownAnswerVectors.ds256Assertion, "certificate signed with DS128"),
                     ("openssl.example", KnownAnswerVectors.rs256IssuerKey, KnownAnswerVectors.rs256Assertion, "assertion signed with DS128")]
        for (issuer, keyText, assertion, refusal) in cases {
            let documents = StaticDocuments(documents: [issuer: StaticDocuments.support(try PublicKey(jsonText: keyText))])
            let result = Verifier(source: documents, policy: VerifierPolicy()).verify(assertion: assertion, audience: KnownAnswerVectors.audience,
                                                                                      now: vectorNow)
            #expect(reason(result) == refusal + ", an algorithm this verifier does not accept")
        }
        let onlyDS256 = Verifier(source: StaticDocuments(documents: ["ds256.example": StaticDocuments.support(try PublicKey(jsonText: KnownAnswerVectors.ds256IssuerKey))]),
                                 policy: VerifierPolicy(legacyAlgorithms: ["DS256"]))
        #expect(reason(onlyDS256.verify(assertion: KnownAnswerVectors.ds256Assertion, audience: KnownAnswerVectors.audience, now: vectorNow))
                == "certificate signed with DS128, an algorithm this verifier does not accept")
    }

    @Test func pyBrowserIDsDS128AssertionVerifies() throws {
        let key = try PublicKey(jsonText: KnownAnswerVectors.ds128IssuerKey)
        #expect(key.algorithm == "DS128")
        let verifier = Verifier(source: StaticDocuments(documents: ["idp.example.org": StaticDocuments.support(key)]), policy: legacy)
        #expect(verifier.verify(assertion: KnownAnswerVectors.ds128Assertion, audience: KnownAnswerVectors.audience, now: now)
                == .okay(email: "alice@idp.example.org", audience: KnownAnswerVectors.audience, expires: KnownAnswerVectors.expires,
                         issuer: "idp.example.org"))
        let late = Date(timeIntervalSince1970: Double(KnownAnswerVectors.expires) / 1000 + 1)
        #expect(reason(verifier.verify(assertion: KnownAnswerVectors.ds128Assertion, audience: KnownAnswerVectors.audience, now: late))
                == "assertion has expired")
    }

    @Test func aDS256UserKeyFromAnOpensslGroupVerifies() throws {
        let key = try PublicKey(jsonText: KnownAnswerVectors.ds256IssuerKey)
        let verifier = Verifier(source: StaticDocuments(documents: ["ds256.example": StaticDocuments.support(key)]), policy: legacy)
        let result = verifier.verify(assertion: KnownAnswerVectors.ds256Assertion, audience: KnownAnswerVectors.audience, now: now)
        #expect(result == .okay(email: "bob@ds256.example", audience: KnownAnswerVectors.audience, expires: KnownAnswerVectors.expires,
                                issuer: "ds256.example"))
        let certified = try IdentityCertificate(token: String(KnownAnswerVectors.ds256Assertion.split(separator: "~")[0]))
        #expect(certified.publicKey.algorithm == "DS256")
        let tampered = KnownAnswerVectors.ds256Assertion.replacingOccurrences(of: "~eyJ", with: "~eyK")
        #expect(reason(verifier.verify(assertion: tampered, audience: KnownAnswerVectors.audience, now: now)) != nil)
    }

    /// Half an hour before the vectors expire (their certificates were issued an hour before).
    let vectorNow = Date(timeIntervalSince1970: Double(KnownAnswerVectors.expires) / 1000 - 1800)

    @Test func anOpensslSignedRS256CertificateVerifies() throws {
        let key = try PublicKey(jsonText: KnownAnswerVectors.rs256IssuerKey)
        #expect(key.algorithm == "RS256")
        let verifier = Verifier(source: StaticDocuments(documents: ["openssl.example": StaticDocuments.support(key)]), policy: legacy)
        #expect(reason(verifier.verify(assertion: KnownAnswerVectors.rs256Assertion, audience: KnownAnswerVectors.audience, now: vectorNow)) == nil)
        let wrongKey = Verifier(source: StaticDocuments(documents: ["openssl.example": StaticDocuments.support(Keys.issuer.publicKey)]),
                                policy: legacy)
        #expect(reason(wrongKey.verify(assertion: KnownAnswerVectors.rs256Assertion, audience: KnownAnswerVectors.audience, now: vectorNow))
                == "bad signature in chain")
    }
}
