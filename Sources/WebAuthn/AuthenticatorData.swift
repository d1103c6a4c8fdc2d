// AuthenticatorData.swift: the authenticator's own record of a ceremony (WebAuthn §6.1), read byte by byte:
//   rpIdHash (32) · flags (1) · signCount (4, big-endian)
//   · [AT] aaguid (16) · credentialIdLength (2, big-endian, 1…1023) · credentialId · credentialPublicKey (COSE, CBOR)
//   · [ED] extensions (one CBOR map)
// and nothing after. The COSE key carries no length of its own: CBORDecoder.decodePrefix says where it ends, and the
// extensions (when ED says there are some) must fill the rest exactly. BS (backed up) without BE (backup eligible) is
// a contradiction the spec tells relying parties to refuse. The reserved flag bits 1 and 5 are ignored.
@_spi(Testing) public struct AuthenticatorData: Sendable {
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 1 << 0)          // UP
        public static let userVerified = Flags(rawValue: 1 << 2)         // UV
        public static let backupEligible = Flags(rawValue: 1 << 3)       // BE
        public static let backedUp = Flags(rawValue: 1 << 4)             // BS
        public static let attestedCredential = Flags(rawValue: 1 << 6)   // AT
        public static let extensions = Flags(rawValue: 1 << 7)           // ED
    }

    public struct AttestedCredential: Sendable {
        public let aaguid: [UInt8]
        public let credentialId: [UInt8]
        /// The COSE key exactly as the authenticator wrote it (what is stored).
        public let publicKeyBytes: [UInt8]
        public let publicKey: COSEKey
    }

    /// The longest credential ID a relying party must accept (WebAuthn Level 3); longer ones are refused.
    public static let maximumCredentialIdLength = 1023

    public let rpIdHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    public let attestedCredential: AttestedCredential?
    public let extensions: CBOR?

    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformed(.authenticatorData) }
        rpIdHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        if flags.contains(.backedUp) && !flags.contains(.backupEligible) { throw .malformed(.authenticatorData) }
        var position = 37
        if flags.contains(.attestedCredential) {
            guard bytes.count - position >= 18 else { throw .malformed(.authenticatorData) }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length >= 1, length <= Self.maximumCredentialIdLength, bytes.count - position >= length else {
                throw .malformed(.authenticatorData)
            }
            let credentialId = Array(bytes[position..<position + length])
            position += length
            let key: CBOR, end: Int
            do { (key, end) = try CBORDecoder.decodePrefix(bytes, from: position) } catch {
                throw .malformed(.authenticatorData)
            }
            let publicKey = try COSEKey(key)
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialId: credentialId,
                                                    publicKeyBytes: Array(bytes[position..<end]), publicKey: publicKey)
            position = end
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensions) {
            let item: CBOR, end: Int
            do { (item, end) = try CBORDecoder.decodePrefix(bytes, from: position) } catch {
                throw .malformed(.authenticatorData)
            }
            guard case .map = item else { throw .malformed(.authenticatorData) }
            extensions = item
            position = end
        } else {
            extensions = nil
        }
        guard position == bytes.count else { throw .malformed(.authenticatorData) }
    }
}
