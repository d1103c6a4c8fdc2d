// RelyingParty.swift: the two ceremonies a server checks (WebAuthn §7.1 registration, §7.2 assertion), the only
// public API of this target. No storage and no HTTP: the caller keeps the challenge it issued, the stored key and its
// counter, and gives them here.
// Options: `id` (the RP ID, a registrable suffix of the origins' host; its SHA-256 must be the authenticator data's
// rpIdHash), `origins` (every origin a ceremony may come from, compared exactly), `requireUserVerification` per call
// (true by default: a passkey then stands for two factors).
// Attestation is not judged: fmt "none" and every other format (packed, tpm, android-key, apple, fido-u2f, …) are
// accepted and their statement is ignored. Frontdoor trusts no authenticator maker's certificates, and a verified
// statement without such trust proves nothing the signature at each assertion does not; the AAGUID is returned only
// so a person can tell their passkeys apart (an unattested AAGUID is a hint, never a fact to decide on).
// A counter that went back (both counters zero excepted: an authenticator without one) is reported, not thrown:
// synced passkeys keep no reliable counter, and the caller decides what to do (log it, at least).
import Crypto

public struct RelyingParty: Sendable {
    public let id: String
    public let origins: [String]

    public init(id: String, origins: [String]) {
        self.id = id
        self.origins = origins
    }

    /// Checks a registration (navigator.credentials.create's response) and returns the credential to store.
    public func verifyRegistration(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8],
                                   requireUserVerification: Bool = true) throws(WebAuthnError) -> RegisteredCredential {
        try ClientData(clientDataJSON).check(ceremony: .registration, challenge: challenge, origins: origins)
        let object: CBOR
        do { object = try CBORDecoder.decode(attestationObject) } catch { throw .malformed(.attestationObject) }
        guard case .text(let format)? = object["fmt"], case .map? = object["attStmt"],
              case .bytes(let authDataBytes)? = object["authData"] else { throw .malformed(.attestationObject) }
        let authData = try AuthenticatorData(authDataBytes)
        try checkAuthenticatorData(authData, requireUserVerification: requireUserVerification)
        guard let credential = authData.attestedCredential else { throw .attestedCredentialMissing }
        return RegisteredCredential(
            credentialId: credential.credentialId, publicKey: credential.publicKeyBytes,
            algorithm: credential.publicKey.algorithm.rawValue, signCount: authData.signCount,
            aaguid: credential.aaguid, userVerified: authData.flags.contains(.userVerified),
            backupEligible: authData.flags.contains(.backupEligible), backedUp: authData.flags.contains(.backedUp),
            attestationFormat: format)
    }

    /// Checks an assertion (navigator.credentials.get's response) against the stored COSE key and counter.
    public func verifyAssertion(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
                                publicKey: [UInt8], storedSignCount: UInt32, challenge: [UInt8],
                                requireUserVerification: Bool = true) throws(WebAuthnError) -> VerifiedAssertion {
        try ClientData(clientDataJSON).check(ceremony: .assertion, challenge: challenge, origins: origins)
        let authData = try AuthenticatorData(authenticatorData)
        try checkAuthenticatorData(authData, requireUserVerification: requireUserVerification)
        let key = try COSEKey(publicKey)
        try key.verify(signature: signature, over: authenticatorData + Array(SHA256.hash(data: clientDataJSON)))
        let signCount = authData.signCount
        return VerifiedAssertion(
            signCount: signCount, userVerified: authData.flags.contains(.userVerified),
            backedUp: authData.flags.contains(.backedUp),
            counterWentBack: (signCount != 0 || storedSignCount != 0) && signCount <= storedSignCount)
    }

    /// The checks both ceremonies make on the authenticator data: this RP ID, user present, verified if required.
    private func checkAuthenticatorData(_ authData: AuthenticatorData, requireUserVerification: Bool) throws(WebAuthnError) {
        guard authData.rpIdHash.elementsEqual(SHA256.hash(data: Array(id.utf8))) else { throw .relyingPartyMismatch }
        guard authData.flags.contains(.userPresent) else { throw .userNotPresent }
        guard !requireUserVerification || authData.flags.contains(.userVerified) else { throw .userNotVerified }
    }
}

/// A credential to store after a registration.
public struct RegisteredCredential: Sendable, Equatable {
    public let credentialId: [UInt8]
    /// The COSE key bytes exactly as the authenticator sent them; give them back to verifyAssertion.
    public let publicKey: [UInt8]
    /// The COSE algorithm: -7 (ES256), -8 (EdDSA) or -257 (RS256).
    public let algorithm: Int
    public let signCount: UInt32
    /// 16 bytes; all zero when the authenticator (or the browser, for attestation "none") does not say.
    public let aaguid: [UInt8]
    public let userVerified: Bool
    public let backupEligible: Bool
    public let backedUp: Bool
    /// The attestation statement's format as sent ("none", "packed", …); the statement itself is not checked.
    public let attestationFormat: String
}

/// What an assertion that verified tells the caller.
public struct VerifiedAssertion: Sendable, Equatable {
    /// The authenticator's counter now; store it.
    public let signCount: UInt32
    public let userVerified: Bool
    public let backedUp: Bool
    /// The counter is not above the stored one (and not both zero): possibly a cloned authenticator. Not an error.
    public let counterWentBack: Bool
}
