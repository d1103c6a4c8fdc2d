// VerifierBudgetTests.swift: what one verification may cost: a budget of support documents, a deadline, and the
// cheap checks (shape, times, audience, algorithm, the assertion's own signature) before any document is asked for.
import Foundation
import Locking
import Testing
@testable import BrowserID

/// An identity provider with no end: every document hands authority to a new name. Counts the calls, and each answer
/// costs `step` seconds of the fake clock (never past the deadline it was given, as a real fetch is cut there).
final class EndlessAuthorities: SupportDocumentSource, Sendable {
    let step: TimeInterval
    private let state = Locked<(calls: [String], clock: Date)>(([], now))

    init(step: TimeInterval = 0) { self.step = step }

    var calls: [String] { state.withLock { $0.calls } }
    var clock: Date { state.withLock { $0.clock } }
    var tick: @Sendable () -> Date { { [state] in state.withLock { $0.clock } } }

    func supportDocument(for issuer: String) throws -> SupportDocument { try supportDocument(for: issuer, before: .distantFuture) }

    func supportDocument(for issuer: String, before deadline: Date) throws -> SupportDocument {
        try state.withLock { state in
            state.calls.append(issuer)
            state.clock = min(state.clock.addingTimeInterval(step), deadline)
            if state.clock >= deadline { throw BrowserIDError(reason: "can't get public key for \(issuer): the support document could not be fetched") }
            return .authority("hop\(state.calls.count).example")
        }
    }
}

struct VerifierBudgetTests {
    func bundle(email: String = "ann@start.example", issuer: String = "issuer.example", audience: String = "https://rp.example",
                expires: Date = now.addingTimeInterval(120), algorithm: String? = nil) throws -> String {
        let certificate = try IdentityCertificate.sign(email: email, publicKey: Keys.user.publicKey, issuer: issuer,
                                                       issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(3600),
                                                       key: Keys.issuer)
        let assertion = try IdentityAssertion.sign(audience: audience, expiresAt: expires, key: Keys.user)
        guard let algorithm else { return IdentityAssertion.bundle(certificates: [certificate], assertion: assertion) }
        // The same certificate under another header: the algorithm is read before any signature is checked.
        let header = Data(#"{"alg":"\#(algorithm)"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let relabelled = header + certificate.drop(while: { $0 != "." })
        return IdentityAssertion.bundle(certificates: [relabelled], assertion: assertion)
    }

    func reason(_ result: VerificationResult) -> String? {
        if case let .failure(reason) = result { return reason }
        return nil
    }

    @Test func anEndlessDelegationChainCostsAtMostTheBudget() throws {
        // Given an email domain whose documents delegate forever, and an issuer that is not the domain
        let source = EndlessAuthorities()
        let verifier = Verifier(source: source, policy: VerifierPolicy(maxFetches: 3), clock: source.tick)
        // When one assertion is verified
        let result = verifier.verify(assertion: try bundle(), audience: "https://rp.example", now: now)
        // Then at most three documents were asked for, and the reason says why it stopped
        #expect(source.calls.count <= 3, "calls: \(source.calls)")
        #expect(reason(result) == "issuer 'issuer.example' may not speak for emails from 'start.example'")
    }

    @Test func anEndlessKeyChainOfATrustedIssuerCostsAtMostTheBudget() throws {
        let source = EndlessAuthorities()
        let verifier = Verifier(source: source, policy: VerifierPolicy(trustedSecondaries: ["issuer.example"], maxFetches: 3),
                                clock: source.tick)
        let result = verifier.verify(assertion: try bundle(), audience: "https://rp.example", now: now)
        #expect(source.calls.count <= 3, "calls: \(source.calls)")
        #expect(reason(result) == "can't get public key for issuer.example: too many support documents to fetch")
    }

    @Test func aVerificationGivesUpAtItsDeadline() throws {
        // Given documents that take 2 s each, a deadline of 5 s and a budget that would not stop it
        let source = EndlessAuthorities(step: 2)
        let verifier = Verifier(source: source, policy: VerifierPolicy(trustedSecondaries: ["issuer.example"], maxFetches: 100,
                                                                        deadline: 5), clock: source.tick)
        let result = verifier.verify(assertion: try bundle(), audience: "https://rp.example", now: now)
        // Then the third document is cut at the deadline and no fourth is asked for
        #expect(source.calls.count == 3, "calls: \(source.calls)")
        #expect(source.clock <= now.addingTimeInterval(5))
        #expect(reason(result) == "can't get public key for hop2.example: the support document could not be fetched")
    }

    @Test func noDocumentIsAskedForOnceTheDeadlineHasPassed() throws {
        let source = EndlessAuthorities(step: 5)
        let verifier = Verifier(source: source, policy: VerifierPolicy(maxFetches: 100, deadline: 5), clock: source.tick)
        let result = verifier.verify(assertion: try bundle(), audience: "https://rp.example", now: now)
        #expect(source.calls.count == 1)
        #expect(reason(result) == "issuer 'issuer.example' may not speak for emails from 'start.example'")
    }

    @Test func theCheapChecksComeBeforeAnyFetch() throws {
        let source = EndlessAuthorities()
        let verifier = Verifier(source: source, policy: VerifierPolicy(), clock: source.tick)
        let cases: [(String, String)] = [
            (try bundle(algorithm: "DS128"), "certificate signed with DS128, an algorithm this verifier does not accept"),
            (try bundle(algorithm: "none"), "certificate signed with none, an algorithm this verifier does not accept"),
            (try bundle(expires: now.addingTimeInterval(-1)), "assertion has expired"),
            (try bundle(audience: "https://elsewhere.example"), "audience mismatch: domain mismatch"),
            ("garbage", "malformed backed assertion"),
            (try bundle(email: "not an address"), "invalid email"),
        ]
        for (assertion, expected) in cases {
            #expect(reason(verifier.verify(assertion: assertion, audience: "https://rp.example", now: now)) == expected)
        }
        // An assertion its certified key did not sign is refused before the issuer's documents are asked for
        let parts = try bundle().split(separator: "~").map(String.init)
        let forged = parts[0] + "~" + (try IdentityAssertion.sign(audience: "https://rp.example", expiresAt: now.addingTimeInterval(120),
                                                               key: Keys.other))
        #expect(reason(verifier.verify(assertion: forged, audience: "https://rp.example", now: now)) == "invalid signature")
        #expect(source.calls.isEmpty, "calls: \(source.calls)")
    }
}
