// VerifiedCertificates.swift: identity certificates whose chain the verifier has checked, remembered so that the next
// assertion backed by the same certificate costs one signature check (the assertion's own) instead of parsing the
// certificate (its key's decimal digits), asking for the issuer's keys and checking the certificate's signature: a
// browser backs every assertion with the certificate it holds for a day, so a relying party's `/verify` calls for one
// person mostly repeat it. Measured with callgrind: those steps were about 0.9 M of the 2.3 M instructions a
// `/verify` cost.
//
// Options (VerifierPolicy): rememberCertificates (seconds an entry is used at most, and never past the certificate's
// own expiry; 0 remembers nothing; Frontdoor passes `browserid.fetch_cache`, the time the support documents behind the
// verdict are reused anyway) and rememberedCertificates (entries at most; a full memory is emptied and fills again,
// so a flood of certificates costs memory only up to the bound).
//
// What is remembered is the certificate's own content (issuer, address, times, the certified key, ready for checking)
// and that its chain held at the time; everything that depends on the assertion or on the verification date (expiry,
// audience, the assertion's signature) is checked on every call. The key is the whole certificate text: a certificate
// that differs by one byte is another entry, checked from the start. Only verdicts of "okay" are kept.
import Foundation
import Locking

/// Certificates whose chain held, by their text, each until `until`.
final class VerifiedCertificates: Sendable {
    struct Entry: Sendable {
        let certificate: IdentityCertificate
        /// The certificate's `alg` (checked against the policy on every call, like the assertion's).
        let algorithm: String
        /// The certified key, ready for checking the assertions it signs.
        let key: PreparedKey
        let until: Date
    }

    let lifetime: TimeInterval
    let capacity: Int
    private let entries = Locked<[String: Entry]>([:])

    init(lifetime: TimeInterval, capacity: Int) {
        self.lifetime = max(0, lifetime)
        self.capacity = max(0, capacity)
    }

    /// The entry for `token` if it is still to be used at `time`.
    func entry(for token: Substring, at time: Date) -> Entry? {
        guard lifetime > 0, capacity > 0 else { return nil }
        let key = String(token)
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            if entry.until > time { return entry }
            entries[key] = nil
            return nil
        }
    }

    /// Remembers that `token`'s chain held, checked at `time`.
    func remember(_ token: Substring, certificate: IdentityCertificate, algorithm: String, key: PreparedKey, at time: Date) {
        guard lifetime > 0, capacity > 0 else { return }
        let until = min(time.addingTimeInterval(lifetime), certificate.expiresAt)
        guard until > time else { return }
        let entry = Entry(certificate: certificate, algorithm: algorithm, key: key, until: until)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[String(token)] = entry
        }
    }

    /// How many entries are held (tests).
    var count: Int { entries.withLock { $0.count } }
}
