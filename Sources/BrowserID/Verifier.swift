// Verifier.swift: checks a backed identity assertion the way Persona's verifier did, with its reason strings.
// Options (VerifierPolicy): trustedSecondaries (issuers that may vouch for any domain: Frontdoor itself and any
// configured), leeway (slack on expiry and issue times, default 0 as in Persona), maxDelegations (6),
// legacyAlgorithms (which of RS128, DS128 and DS256 count besides RS256; default none), maxFetches (support
// documents one verification may ask for, default 3) and deadline (seconds one verification may take, default 5);
// the clock the deadline is kept on is injected (`clock`); rememberCertificates and rememberedCertificates (how long
// and how many certificates whose chain held are remembered: VerifiedCertificates; default none).
// Order: the cheap checks first (shape, times, audience, email, accepted algorithms, the assertion's signature by the
// key its certificate names), then the support documents (the issuer policy, the issuer's keys) and the certificate's
// signature. Anyone can call /verify and name any host, so what one call may cost is bounded: the documents come from
// `source` through a FetchBudget (at most maxFetches, none once the deadline has passed, each told the deadline so a
// fetch is cut there), and a source that is too busy to fetch at all (FetchesBusy) ends the verification at once.
// Not done: Persona's "the email domain's own support document wins over a secondary" lookup.
import Foundation
import JOSE

/// How much a verifier trusts.
public struct VerifierPolicy: Sendable {
    public var trustedSecondaries: Set<String>
    public var leeway: TimeInterval
    public var maxDelegations: Int
    /// The signature algorithms accepted: RS256 and the legacy ones asked for (RS64 can't be asked for).
    public let acceptedAlgorithms: Set<String>
    /// Support documents one verification may ask its source for, cached ones included: the email domain's delegation
    /// and the issuer's keys, with one hop of `authority` to spare.
    public var maxFetches: Int
    /// Seconds one verification may take, its fetches included.
    public var deadline: TimeInterval
    /// Seconds a certificate whose chain held is remembered at most (never past its expiry); 0: none.
    public var rememberCertificates: TimeInterval
    /// Certificates remembered at most.
    public var rememberedCertificates: Int

    public init(trustedSecondaries: Set<String> = [], leeway: TimeInterval = 0, maxDelegations: Int = 6,
                legacyAlgorithms: Set<String> = [], maxFetches: Int = 3, deadline: TimeInterval = 5,
                rememberCertificates: TimeInterval = 0, rememberedCertificates: Int = 4096) {
        self.trustedSecondaries = Set(trustedSecondaries.map { $0.lowercased() })
        self.rememberCertificates = rememberCertificates
        self.rememberedCertificates = rememberedCertificates
        self.leeway = leeway
        self.maxDelegations = maxDelegations
        self.maxFetches = maxFetches
        self.deadline = deadline
        acceptedAlgorithms = legacyAlgorithms.intersection(Signatures.legacyAlgorithms).union(["RS256"])
    }

    /// The algorithms `legacy_algorithms` may name.
    public static let legacyAlgorithms = Signatures.legacyAlgorithms
}

/// The verdict on one assertion.
public enum VerificationResult: Sendable, Equatable {
    /// `audience` is echoed as the relying party gave it; `expires` is the assertion's expiry in milliseconds.
    case okay(email: String, audience: String, expires: Int64, issuer: String)
    case failure(reason: String)
    /// Too many support documents were being fetched at once to take this one on (nothing was checked against the
    /// network): the relying party may ask again shortly. The reason is `VerificationResult.busyReason`.
    case busy

    /// What a busy verifier answers, worded as a failure reason.
    public static let busyReason = "busy: too many support documents are being fetched; try again shortly"
}

/// Verifies backed assertions against support documents from `source`.
public struct Verifier: Sendable {
    public let source: any SupportDocumentSource
    public let policy: VerifierPolicy
    /// The running clock the deadline is kept on (not `now`, the verification date the times are checked against).
    public let clock: @Sendable () -> Date
    let remembered: VerifiedCertificates

    public init(source: any SupportDocumentSource, policy: VerifierPolicy, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.source = source
        self.policy = policy
        self.clock = clock
        remembered = VerifiedCertificates(lifetime: policy.rememberCertificates, capacity: policy.rememberedCertificates)
    }

    /// The verdict on `assertion` for `audience` at `now`; ends within `policy.deadline` of the clock (give or take the
    /// source's own slack past the deadline it is told).
    public func verify(assertion: String, audience: String, now: Date) -> VerificationResult {
        let started = clock()
        var fetches = FetchBudget(source: source, remaining: policy.maxFetches, deadline: started.addingTimeInterval(policy.deadline),
                                  clock: clock)
        do { return try check(assertion, audience: audience, now: now, started: started, fetches: &fetches) } catch is FetchesBusy {
            return .busy
        } catch let error as BrowserIDError {
            return .failure(reason: error.reason)
        } catch {
            return .failure(reason: "\(error)")
        }
    }

    private func check(_ bundle: String, audience: String, now: Date, started: Date, fetches: inout FetchBudget) throws -> VerificationResult {
        guard bundle.utf8.count <= 65_536 else { throw BrowserIDError(reason: "malformed backed assertion") }
        let parts = CompactParts.split(bundle[...], separator: UInt8(ascii: "~"))
        guard parts.count >= 2 else { throw BrowserIDError(reason: parts.first?.contains(".") == true ? "no certificates provided" : "malformed backed assertion") }
        guard parts.count == 2 else { throw BrowserIDError(reason: "certificate chaining is not yet allowed") }
        // A remembered certificate's chain held when it was checked: its content is taken as it was read then.
        let remembered = self.remembered.entry(for: parts[0], at: started)
        let certificateJWS = remembered == nil ? try JWS.browserID(parts[0]) : nil, assertionJWS = try JWS.browserID(parts[1])
        let certificate = try remembered?.certificate ?? IdentityCertificate(jws: certificateJWS!, token: String(parts[0]))
        let certificateAlgorithm = remembered?.algorithm ?? certificateJWS!.algorithm

        guard let expires = JWS.milliseconds(assertionJWS.payload["exp"]) else { throw BrowserIDError(reason: "assertion has no expiration") }
        if expires.addingTimeInterval(policy.leeway) < now { throw BrowserIDError(reason: "assertion has expired") }
        if let issued = JWS.milliseconds(assertionJWS.payload["iat"]), issued.addingTimeInterval(-policy.leeway) > now {
            throw BrowserIDError(reason: "assertion issued later than verification date")
        }
        guard let aud = assertionJWS.payload["aud"] as? String else { throw BrowserIDError(reason: "audience mismatch: domain missing") }
        if let mismatch = Audience.mismatch(assertion: aud, expected: audience) { throw BrowserIDError(reason: "audience mismatch: " + mismatch) }
        if certificate.expiresAt.addingTimeInterval(policy.leeway) < now { throw BrowserIDError(reason: "certificate has expired") }
        if let issued = certificate.issuedAt, issued.addingTimeInterval(-policy.leeway) > now {
            throw BrowserIDError(reason: "certificate issued later than verification date")
        }

        guard let email = certificate.email else { throw BrowserIDError(reason: "missing email") }
        let pieces = email.split(separator: "@", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty, !email.contains(where: { $0.isWhitespace }) else {
            throw BrowserIDError(reason: "invalid email")
        }
        for (what, algorithm) in [("certificate", certificateAlgorithm), ("assertion", assertionJWS.algorithm)] where !policy.acceptedAlgorithms.contains(algorithm) {
            throw BrowserIDError(reason: "\(what) signed with \(algorithm), an algorithm this verifier does not accept")
        }
        // The certified key is in the certificate itself: a garbage assertion is refused before any fetch.
        let certifiedKey = remembered?.key ?? PreparedKey(certificate.publicKey)
        guard assertionJWS.isSigned(by: certifiedKey) else { throw BrowserIDError(reason: "invalid signature") }

        if let certificateJWS {
            let domain = pieces[1].lowercased(), issuer = certificate.issuer.lowercased()
            guard try issuer == domain || policy.trustedSecondaries.contains(issuer) || delegates(domain, to: issuer, &fetches) else {
                throw BrowserIDError(reason: "issuer '\(certificate.issuer)' may not speak for emails from '\(domain)'")
            }
            let keys = try resolveKeys(issuer, &fetches)
            guard keys.contains(where: { certificateJWS.isSigned(by: $0) }) else { throw BrowserIDError(reason: "bad signature in chain") }
            self.remembered.remember(parts[0], certificate: certificate, algorithm: certificateAlgorithm, key: certifiedKey, at: started)
        }
        return .okay(email: email, audience: audience, expires: JWS.milliseconds(expires), issuer: certificate.issuer)
    }

    /// Whether `domain`'s support document hands authority (directly or along a chain) to `issuer`; a document that
    /// can't be had (the budget spent included) means no. Throws only FetchesBusy.
    private func delegates(_ domain: String, to issuer: String, _ fetches: inout FetchBudget) throws -> Bool {
        var host = domain, seen: Set<String> = [domain]
        for _ in 0..<policy.maxDelegations {
            let document: SupportDocument
            do { document = try fetches.document(for: host, on: issuer) } catch is FetchesBusy { throw FetchesBusy() } catch { return false }
            guard case let .authority(next) = document else { return false }
            if next == issuer { return true }
            guard seen.insert(next).inserted else { return false }
            host = next
        }
        return false
    }

    /// The keys `issuer` publishes, following `authority` at most `maxDelegations` times, refusing cycles.
    private func resolveKeys(_ issuer: String, _ fetches: inout FetchBudget) throws -> [PublicKey] {
        var host = issuer, seen: Set<String> = [issuer]
        for _ in 0...policy.maxDelegations {
            switch try fetches.document(for: host, on: issuer) {
            case .disabled:
                throw BrowserIDError(reason: "can't get public key for \(issuer): \(host) has disabled browserid support")
            case let .authority(next):
                guard seen.insert(next).inserted else {
                    throw BrowserIDError(reason: "can't get public key for \(issuer): circular reference in delegating authority")
                }
                host = next
            case let document:
                return document.verificationKeys
            }
        }
        throw BrowserIDError(reason: "can't get public key for \(issuer): too many hops while delegating authority")
    }
}

/// What one verification may still ask its source for: a number of documents, until a deadline.
struct FetchBudget {
    let source: any SupportDocumentSource
    var remaining: Int
    let deadline: Date
    let clock: @Sendable () -> Date

    /// `host`'s document, fetched for `issuer`'s sake (named in the reason when the budget or the time is spent).
    mutating func document(for host: String, on issuer: String) throws -> SupportDocument {
        guard remaining > 0 else { throw BrowserIDError(reason: "can't get public key for \(issuer): too many support documents to fetch") }
        guard clock() < deadline else { throw BrowserIDError(reason: "can't get public key for \(issuer): out of time for this verification") }
        remaining -= 1
        return try source.supportDocument(for: host, before: deadline)
    }
}

/// Audience matching: a full origin (default ports filled in) compares scheme, host and port; `host:port` compares
/// host and port; a bare host compares the host only.
enum Audience {
    /// nil when `assertion` (the `aud` the browser signed) matches `expected` (what the relying party says it is).
    static func mismatch(assertion: String, expected: String) -> String? {
        guard let want = Origin(assertion, bare: false) else { return "malformed domain" }
        guard let got = Origin(expected, bare: true) else { return "malformed domain" }
        if let scheme = got.scheme, scheme != want.scheme { return "scheme mismatch" }
        if got.host != want.host { return "domain mismatch" }
        if let port = got.port, port != want.port { return "port mismatch" }
        return nil
    }

    struct Origin {
        var scheme: String?
        var host: String
        var port: Int?

        init?(_ text: String, bare: Bool) {
            var rest = Substring(text)
            if let separator = Self.schemeSeparator(text) {
                let scheme = text[..<separator.lowerBound].lowercased()
                guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
                self.scheme = scheme
                rest = text[separator.upperBound...]
            } else if !bare {
                return nil
            }
            // By byte from here: a host is ASCII letters, digits and `.-[]:_` only, so anything else fails the check
            // below whichever way it is cut (by Character this cost ~40 k instructions per verification).
            if let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/")) {
                guard rest.utf8.index(after: slash) == rest.utf8.endIndex else { return nil }
                rest = rest[..<slash]
            }
            var hostPart = rest, portText: Substring?
            if let colon = rest.utf8.lastIndex(of: UInt8(ascii: ":")), rest.utf8.last != UInt8(ascii: "]") {
                hostPart = rest[..<colon]
                portText = rest[rest.utf8.index(after: colon)...]
            }
            guard !hostPart.isEmpty, hostPart.utf8.allSatisfy(Self.isHostByte) else { return nil }
            host = hostPart.lowercased()
            if let portText {
                guard let port = Int(portText), (1...65535).contains(port) else { return nil }
                self.port = port
            } else if let scheme {
                port = scheme == "https" ? 443 : (scheme == "http" ? 80 : nil)
            }
        }

        static func isHostByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"), UInt8(ascii: "_"): true
            default: false
            }
        }

        /// Where the first `://` is, found by byte (Foundation's `range(of:)` cost more than the rest of the check).
        static func schemeSeparator(_ text: String) -> Range<String.Index>? {
            let utf8 = text.utf8
            var index = utf8.startIndex
            while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
                let end = utf8.index(colon, offsetBy: 3, limitedBy: utf8.endIndex) ?? utf8.endIndex
                if utf8[colon..<end].elementsEqual("://".utf8) { return colon..<end }
                index = utf8.index(after: colon)
            }
            return nil
        }
    }
}
