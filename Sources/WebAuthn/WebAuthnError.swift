// WebAuthnError.swift: why a registration or an assertion was refused. One case per check, so a caller can log the
// reason and a test can name the check it expects to fail; none of them is shown to the person as it is (every refusal
// reads the same to them: the passkey could not be used).
public enum WebAuthnError: Error, Equatable, Sendable {
    /// Which input could not be read.
    public enum Part: String, Sendable {
        case clientData            // clientDataJSON: not JSON, or a member missing or of the wrong type
        case attestationObject     // not the CBOR map {fmt, attStmt, authData}
        case authenticatorData     // too short, a length beyond its end, trailing bytes, BS without BE
        case publicKey             // the COSE key: not a map, a parameter missing or of the wrong size, not a valid key
        case signature             // not a signature of the key's algorithm (an ES256 one must be DER)
    }

    /// The input could not be read at all.
    case malformed(Part)
    /// clientData's `type` was not the ceremony's ("webauthn.create" at registration, "webauthn.get" at an assertion).
    case wrongType
    /// clientData's `challenge` was not the one this server issued.
    case challengeMismatch
    /// clientData's `origin` is none of the relying party's origins.
    case originNotAllowed
    /// clientData says the ceremony ran in a cross-origin frame; this server is never framed by another site.
    case crossOrigin
    /// The authenticator data's rpIdHash is not SHA-256 of this relying party's ID.
    case relyingPartyMismatch
    /// The UP flag is not set: no one touched the authenticator.
    case userNotPresent
    /// The UV flag is not set though user verification was required.
    case userNotVerified
    /// A COSE key of a type or algorithm other than ES256 (-7), EdDSA/Ed25519 (-8) or RS256 (-257, n ≥ 2048 bits).
    case unsupportedAlgorithm
    /// The signature does not verify over authenticatorData ‖ SHA-256(clientDataJSON).
    case badSignature
    /// A registration whose authenticator data has no attested credential (the AT flag is not set).
    case attestedCredentialMissing
}
