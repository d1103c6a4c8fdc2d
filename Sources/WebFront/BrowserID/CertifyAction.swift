// CertifyAction.swift: POST <base>/browserid/certify: the dialog's key, certified for one of the person's verified addresses.
// Fields: email, pubkey (BrowserID public-key JSON), ephemeral ("true": "this is not my computer", short
// lifetime), csrf_token. Accepted keys: those the verifier accepts (RS256: RSA of 2048 to 4096 bits; DS128, DS256 and
// RS128 only when browserid.legacy_algorithms lists them). Answers JSON; the
// certificate is logged by account id only, never the key or the certificate itself.
import AccountCore
import BrowserID
import Foundation

/// Signs a certificate for a verified address of the signed-in person.
struct CertifyAction: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let addresses: EmailAddresses
    let clock: any Clock
    init(_ core: AccountServices) { (addresses, clock) = (core.addresses, core.clock) }

    func submit(_ context: RequestContext) throws -> Response {
        guard let services = context.site.browserID else { throw HTTPError.notFound }
        guard let session = try context.session() else { return .json(["error": "not_signed_in"], status: 401) }
        let form = context.form
        guard let email = form["email"], !email.isEmpty, let keyText = form["pubkey"], !keyText.isEmpty else {
            return .json(["error": "missing_fields"], status: 400)
        }
        guard keyText.utf8.count <= 8192, let key = try? PublicKey(jsonText: keyText),
              Self.acceptable(key, accepted: services.verifier.policy.acceptedAlgorithms) else {
            return .json(["error": "bad_key"], status: 400)
        }
        guard let address = try addresses.verified(email, of: session.accountId) else {
            return .json(["error": "not_your_address"], status: 403)
        }
        let certificate = try services.provider.certify(email: address.address, publicKey: key, ephemeral: form["ephemeral"] == "true")
        context.site.logger.info("browserid certificate issued", metadata: ["account": "\(session.accountId)", "ephemeral": "\(form["ephemeral"] == "true")"])
        let now = clock.now().timeIntervalSince1970
        return .json(["certificate": certificate, "server_time": Int64((now * 1000).rounded())])
    }

    /// Keys worth certifying: those whose signatures the verifier would check (WebCrypto makes RS256 keys).
    static func acceptable(_ key: PublicKey, accepted: Set<String>) -> Bool {
        key.algorithm.map(accepted.contains) ?? false
    }
}
