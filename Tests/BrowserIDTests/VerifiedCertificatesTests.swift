// VerifiedCertificatesTests.swift: a certificate whose chain held is remembered (the issuer is not asked again, the
// certificate's signature not checked again), while everything about the assertion and the verification date is
// still checked on every call; a certificate that differs by one byte, a failed chain, an entry past its lifetime or
// its certificate's expiry, and a memory that is off are never taken from it.
import Foundation
import Locking
import Testing
@testable import BrowserID

/// Support documents by issuer, counting every request; the running clock the verifier keeps its memory on.
final class CountingDocuments: SupportDocumentSource, Sendable {
    private let documents: [String: SupportDocument]
    private let state = Locked<(asked: Int, clock: Date)>((0, now))

    init(_ documents: [String: SupportDocument]) { self.documents = documents }

    var asked: Int { state.withLock { $0.asked } }
    var clock: @Sendable () -> Date { { [state] in state.withLock { $0.clock } } }
    func advance(_ seconds: TimeInterval) { state.withLock { $0.clock.addTimeInterval(seconds) } }

    func supportDocument(for issuer: String) throws -> SupportDocument {
        state.withLock { $0.asked += 1 }
        guard let document = documents[issuer] else { throw BrowserIDError(reason: "can't get public key for \(issuer): no such host") }
        return document
    }
}

struct VerifiedCertificatesTests {
    let documents = CountingDocuments(["idp.example": StaticDocuments.support(Keys.issuer.publicKey), "delegating.example": .authority("idp.example")])

    func verifier(remember: TimeInterval = 600, capacity: Int = 4096) -> Verifier {
        Verifier(source: documents, policy: VerifierPolicy(rememberCertificates: remember, rememberedCertificates: capacity),
                 clock: documents.clock)
    }

    func certificate(email: String = "ann@delegating.example", signer: RSASigningKey = Keys.issuer,
                     expires: Date = now.addingTimeInterval(3600)) throws -> String {
        try IdentityCertificate.sign(email: email, publicKey: Keys.user.publicKey, issuer: "idp.example",
                                     issuedAt: now.addingTimeInterval(-60), expiresAt: expires, key: signer)
    }

    func bundle(_ certificate: String, key: RSASigningKey = Keys.user, audience: String = "https://rp.example",
                expires: Date = now.addingTimeInterval(120)) throws -> String {
        IdentityAssertion.bundle(certificates: [certificate], assertion: try IdentityAssertion.sign(audience: audience, expiresAt: expires, key: key))
    }

    func reason(_ result: VerificationResult) -> String? {
        if case let .failure(reason) = result { return reason }
        return nil
    }

    @Test func aGoodCertificateIsCheckedOnceAndItsAssertionsEveryTime() throws {
        let v = verifier(), certificate = try certificate()
        #expect(reason(v.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil)
        let asked = documents.asked
        #expect(asked == 2 && v.remembered.count == 1, "the delegation and the issuer's keys, once")
        // A new assertion backed by the same certificate: no document asked for.
        #expect(reason(v.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil)
        #expect(documents.asked == asked)
        // What the assertion says is still checked against the remembered certificate's key and the date.
        #expect(reason(v.verify(assertion: try bundle(certificate, key: Keys.other), audience: "https://rp.example", now: now)) == "invalid signature")
        #expect(reason(v.verify(assertion: try bundle(certificate, expires: now.addingTimeInterval(-1)), audience: "https://rp.example", now: now))
                == "assertion has expired")
        #expect(reason(v.verify(assertion: try bundle(certificate), audience: "https://other.example", now: now)) == "audience mismatch: domain mismatch")
        #expect(reason(v.verify(assertion: try bundle(certificate, expires: now.addingTimeInterval(7200)), audience: "https://rp.example",
                                now: now.addingTimeInterval(3601))) == "certificate has expired")
        #expect(documents.asked == asked)
    }

    @Test func aCertificateThatDiffersByAByteIsCheckedFromTheStart() throws {
        let v = verifier(), good = try certificate()
        #expect(reason(v.verify(assertion: try bundle(good), audience: "https://rp.example", now: now)) == nil)
        // The same signature over another payload (another address): the remembered text does not match it.
        let other = try certificate(email: "eve@delegating.example").split(separator: ".")
        let forged = other[0] + "." + other[1] + "." + good.split(separator: ".")[2]
        #expect(reason(v.verify(assertion: try bundle(String(forged)), audience: "https://rp.example", now: now)) == "bad signature in chain")
        #expect(v.remembered.count == 1)
    }

    @Test func aFailedChainIsNeverRemembered() throws {
        let v = verifier(), forged = try certificate(signer: Keys.other)
        for _ in 0..<2 {
            #expect(reason(v.verify(assertion: try bundle(forged), audience: "https://rp.example", now: now)) == "bad signature in chain")
        }
        #expect(v.remembered.count == 0 && documents.asked == 4)
    }

    @Test func anEntryLastsItsLifetimeAndNeverPastItsCertificate() throws {
        let v = verifier(remember: 600), certificate = try certificate()
        #expect(reason(v.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil)
        documents.advance(599)
        #expect(reason(v.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil)
        #expect(documents.asked == 2)
        documents.advance(1)
        #expect(reason(v.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil)
        #expect(documents.asked == 4, "asked again once the lifetime has passed")

        // A certificate that expires sooner than the lifetime is remembered until it expires only.
        let short = try self.certificate(expires: documents.clock().addingTimeInterval(30))
        #expect(reason(v.verify(assertion: try bundle(short), audience: "https://rp.example", now: now)) == nil)
        let entry = try #require(v.remembered.entry(for: short[...], at: documents.clock()))
        #expect(entry.until == documents.clock().addingTimeInterval(30))
        documents.advance(30)
        #expect(v.remembered.entry(for: short[...], at: documents.clock()) == nil)
    }

    @Test func theMemoryIsBoundedAndCanBeOff() throws {
        let off = verifier(remember: 0), certificate = try certificate()
        for _ in 0..<2 { #expect(reason(off.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil) }
        #expect(off.remembered.count == 0 && documents.asked == 4)

        let small = verifier(capacity: 2)
        for index in 0..<5 {
            let certificate = try self.certificate(email: "user\(index)@delegating.example")
            #expect(reason(small.verify(assertion: try bundle(certificate), audience: "https://rp.example", now: now)) == nil)
            #expect(small.remembered.count <= 2)
        }
    }
}
