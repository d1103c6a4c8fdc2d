// BrowserIDFuzz.swift: the properties browserid-fuzz checks. The first byte picks what the rest is:
//   0: a backed assertion as sent (`cert~assertion`), then optionally a line with the audience the relying party expects;
//   1: the same assertion taken apart, one line each: certificate header JSON, payload JSON, signature (base64url),
//      assertion header JSON, payload JSON, signature, expected audience; it is put back together before verifying, so
//      mutations of the JSON reach the checks behind the parser and, unchanged, the signatures verify;
//   2: a support document or a public key (JSON): parsed ones round-trip through their JSON;
//   3: an identity certificate token, parsed without verification.
// Whatever the input, verify answers okay only for a seed's address and issuer and for the seed's relying party.
import BrowserID
import Foundation
import FuzzSupport

enum BrowserIDFuzz {
    static let fixture = Fixture()
    /// FUZZ_VERBOSE=1 prints each verdict (to see which inputs verify).
    static let verbose = getenv("FUZZ_VERBOSE") != nil

    static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        switch mode % 4 {
        case 0:
            let lines = Fuzz.parts(rest, separator: 0x0A, count: 2)
            let audience = rest.contains(0x0A) ? Fuzz.text(Array(rest.drop { $0 != 0x0A }.dropFirst())) : Fixture.audience
            verify(Fuzz.text(lines[0]), audience: audience)
        case 1:
            let lines = Fuzz.parts(rest, separator: 0x0A, count: 7)
            func token(_ at: Int) -> String {
                Fuzz.base64url(lines[at]) + "." + Fuzz.base64url(lines[at + 1]) + "." + Fuzz.text(lines[at + 2])
            }
            verify(token(0) + "~" + token(3), audience: Fuzz.text(Array(lines[6...].joined(separator: [0x0A]))))
        case 2:
            if let document = try? SupportDocument(data: rest) {
                require((try? SupportDocument(data: document.jsonData)) == document, "support document JSON does not round-trip")
            }
            if let key = try? PublicKey(jsonText: Fuzz.text(rest)) {
                require((try? PublicKey(jsonText: key.jsonText)) == key, "public key JSON does not round-trip")
                require(key.algorithm == nil || key.bitLength >= 500, "an algorithm for a tiny key")
            }
        default:
            if let certificate = try? IdentityCertificate(token: Fuzz.text(rest)) {
                require(!certificate.issuer.isEmpty, "a certificate without issuer")
                require((try? PublicKey(jsonText: certificate.publicKey.jsonText)) == certificate.publicKey, "certificate key round trip")
            }
        }
    }

    /// Verifies; an okay must be for a seed's address, example.com as issuer, and the seed's relying party.
    static func verify(_ bundle: String, audience: String) {
        let result = fixture.verifier.verify(assertion: bundle, audience: audience, now: Fixture.now)
        if verbose { print("browserid-fuzz: \(result)") }
        guard case let .okay(email, echoed, _, issuer) = result else { return }
        require(Fixture.emails.contains(email), "verified for \(email.debugDescription)")
        require(issuer == Fixture.issuer, "verified with issuer \(issuer.debugDescription)")
        require(echoed == audience && isRelyingParty(audience), "verified for audience \(audience.debugDescription)")
    }

    /// Whether `audience` names https://rp.example.com (scheme and port optional, default port, one trailing slash).
    static func isRelyingParty(_ audience: String) -> Bool {
        var rest = Substring(audience.lowercased())
        if let range = rest.range(of: "://") {
            guard rest[..<range.lowerBound] == "https" else { return false }
            rest = rest[range.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":") else { return rest == "rp.example.com" }
        return rest[..<colon] == "rp.example.com" && Int(rest[rest.index(after: colon)...]) == 443
    }

    /// The seed corpus: each seed assertion in modes 0 and 1 (with several spellings of the audience), its
    /// certificate (3), the support documents and keys (2). Written to FUZZ_SEED_DIR by LLVMFuzzerInitialize.
    static func seeds() throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for (_, bundle) in try fixture.seedBundles() {
            for audience in [Fixture.audience, "rp.example.com", "https://rp.example.com:443", "http://rp.example.com"] {
                seeds.append([0x30] + Array((bundle + "\n" + audience).utf8))
            }
            var lines: [[UInt8]] = []
            for token in bundle.split(separator: "~") {
                let parts = token.split(separator: ".")
                lines += [Fuzz.unbase64url(parts[0])!, Fuzz.unbase64url(parts[1])!, Array(parts[2].utf8)]
            }
            seeds.append([0x31] + Array((lines + [Array(Fixture.audience.utf8)]).joined(separator: [0x0A])))
            seeds.append([0x33] + Array(bundle.split(separator: "~")[0].utf8))
        }
        let key = fixture.issuerKey.publicKey
        for document in [SupportDocument.support(publicKey: key, keys: [key, fixture.userKey.publicKey], authentication: "/a", provisioning: "/p"),
                         .authority("example.com"), .disabled] {
            seeds.append([0x32] + document.jsonData)
        }
        seeds.append([0x32] + Array(key.jsonText.utf8))
        seeds.append([0x32] + Array(#"{"algorithm":"DS","y":"1f","p":"ff01","q":"7b","g":"2"}"#.utf8))
        return seeds
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) { Fuzz.require(condition, "browserid-fuzz", message()) }
}
