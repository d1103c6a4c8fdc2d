// Passkeys+Types.swift: what passkey operations take and give: the site as a relying party (PasskeyPolicy), the
// options a browser passes to navigator.credentials, and a browser's answer read from its JSON.
//
// Options (PasskeyPolicy): the RP ID and origin come from `public_url` (its host; scheme://host[:port]); the
// authenticator names from `passkeys.authenticator_names` (AAGUID → name, read once at start). Nothing else.
// Wire format (WebAuthn Level 3 `PublicKeyCredential.toJSON()`): every byte string is base64url without padding.
import Encodings
import Foundation

/// The site as a WebAuthn relying party, and the names given to authenticators.
public struct PasskeyPolicy: Sendable, Equatable {
    /// The RP ID: `public_url`'s host. Passkeys are bound to it; a changed host makes every stored passkey unusable.
    public var relyingPartyId: String
    /// The one origin accepted in client data: `public_url`'s scheme://host[:port].
    public var origin: String
    /// Shown by the authenticator beside the account (the site's name).
    public var relyingPartyName: String
    /// Names by AAGUID (lower-case, with dashes: `ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4`), from
    /// `passkeys.authenticator_names`; a passkey added without a name gets its authenticator's.
    public var authenticatorNames: [String: String]
    /// How long a challenge may wait for the browser's answer.
    public var challengeLifetime: TimeInterval = 300
    /// At most this many passkeys per account.
    public var maxPerAccount = 20

    public init(publicURL: String = "http://127.0.0.1:8080", relyingPartyName: String = "Frontdoor", authenticatorNames: [String: String] = [:]) {
        let url = URLComponents(string: publicURL)
        let host = url?.host?.lowercased() ?? "localhost"
        let scheme = url?.scheme?.lowercased() ?? "https"
        relyingPartyId = host
        let defaultPort = (scheme == "https" && url?.port == 443) || (scheme == "http" && url?.port == 80)
        origin = "\(scheme)://\(host)" + (url?.port.map { defaultPort ? "" : ":\($0)" } ?? "")
        self.relyingPartyName = relyingPartyName
        self.authenticatorNames = authenticatorNames
    }

    public static let `default` = PasskeyPolicy()

    /// False when the RP ID is an IP address (`public_url` http://127.0.0.1:8080): browsers take only a domain name
    /// (`localhost` included) as an RP ID, so the pages offer no passkeys there.
    public var isUsable: Bool {
        // By byte (every page asks): an IPv6 address has a colon; an IPv4 one is dot-separated numbers up to 255.
        var octets = true, value = 0, digits = 0
        for byte in relyingPartyId.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return false
            case UInt8(ascii: "."):
                if digits == 0 || value > 255 { octets = false }
                (value, digits) = (0, 0)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 256)
                digits += 1
            default: octets = false
            }
        }
        if digits == 0 || value > 255 { octets = false }
        return !relyingPartyId.isEmpty && !octets
    }

    /// `aaguid` (16 bytes) as the names file writes it: lower-case hex with dashes (8-4-4-4-12).
    public static func aaguidString(_ aaguid: some Collection<UInt8>) -> String {
        let hex = aaguid.map { String(format: "%02x", $0) }.joined()
        guard hex.count == 32 else { return hex }
        var parts: [Substring] = []
        var rest = Substring(hex)
        for length in [8, 4, 4, 4, 12] {
            parts.append(rest.prefix(length))
            rest = rest.dropFirst(length)
        }
        return parts.joined(separator: "-")
    }
}

/// What a challenge is for; an answer is accepted only for the purpose its challenge was made for.
public enum PasskeyPurpose: String, Sendable, CaseIterable {
    case register
    case signIn = "sign_in"
    case secondFactor = "second_factor"
    case reauthenticate
}

/// The options of `navigator.credentials.create` / `.get` (the `publicKey` member), as JSON-ready values.
public struct PasskeyOptions: Sendable, Equatable {
    /// The challenge's raw bytes (kept only as a digest on the server).
    public var challenge: [UInt8]
    public var purpose: PasskeyPurpose
    public var relyingPartyId: String
    public var relyingPartyName: String
    /// Registration: the user handle (derived from the account id, see Passkeys.userHandle), its name and display name.
    public var userHandle: [UInt8] = []
    public var userName = ""
    public var userDisplayName = ""
    /// Registration: credentials already registered (the authenticator refuses to make a second one for the account).
    /// Second factor and re-authentication: the account's credentials the browser may use.
    public var credentialIds: [[UInt8]] = []
    /// In milliseconds.
    public var timeout: Int

    /// The `publicKey` object (byte strings in base64url; the script turns them into ArrayBuffers).
    public var jsonObject: [String: Any] {
        let credentials = credentialIds.map { ["type": "public-key", "id": Base64URL.encode($0)] }
        if purpose == .register {
            return ["challenge": Base64URL.encode(challenge), "rp": ["id": relyingPartyId, "name": relyingPartyName],
                    "user": ["id": Base64URL.encode(userHandle), "name": userName, "displayName": userDisplayName],
                    "pubKeyCredParams": [-7, -8, -257].map { ["type": "public-key", "alg": $0] },
                    "excludeCredentials": credentials, "timeout": timeout, "attestation": "none",
                    "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"]]
        }
        return ["challenge": Base64URL.encode(challenge), "rpId": relyingPartyId, "allowCredentials": credentials,
                "timeout": timeout, "userVerification": "required"]
    }
}

/// A browser's answer to `navigator.credentials.create`.
public struct PasskeyAttestation: Sendable, Equatable {
    public var clientDataJSON: [UInt8]
    public var attestationObject: [UInt8]

    public init(clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }

    /// From the credential's JSON (`{"id", "rawId", "type": "public-key", "response": {"clientDataJSON",
    /// "attestationObject"}}`); nil when it is not that shape.
    public init?(json: String) {
        guard let response = PasskeyJSON.response(json),
              let clientData = PasskeyJSON.bytes(response["clientDataJSON"]),
              let attestation = PasskeyJSON.bytes(response["attestationObject"]) else { return nil }
        self.init(clientDataJSON: clientData, attestationObject: attestation)
    }
}

/// A browser's answer to `navigator.credentials.get`.
public struct PasskeyAssertion: Sendable, Equatable {
    public var credentialId: [UInt8]
    public var clientDataJSON: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]
    /// The user handle the authenticator stored with the credential (discoverable credentials always give it).
    public var userHandle: [UInt8]?

    public init(credentialId: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?) {
        self.credentialId = credentialId
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    /// From the credential's JSON (`{"id", "rawId", "type": "public-key", "response": {"clientDataJSON",
    /// "authenticatorData", "signature", "userHandle"}}`); nil when it is not that shape.
    public init?(json: String) {
        guard let object = PasskeyJSON.object(json), let response = object["response"] as? [String: Any],
              let id = PasskeyJSON.bytes(object["rawId"] ?? object["id"]), !id.isEmpty,
              let clientData = PasskeyJSON.bytes(response["clientDataJSON"]),
              let authenticatorData = PasskeyJSON.bytes(response["authenticatorData"]),
              let signature = PasskeyJSON.bytes(response["signature"]) else { return nil }
        let handle = PasskeyJSON.bytes(response["userHandle"])
        self.init(credentialId: id, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
                  userHandle: handle?.isEmpty == true ? nil : handle)
    }
}

/// Reading the browser's JSON (bounded: a credential is a few kilobytes).
enum PasskeyJSON {
    static let maximumLength = 64 * 1024

    static func object(_ json: String) -> [String: Any]? {
        guard json.utf8.count <= maximumLength,
              let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              (object["type"] as? String ?? "public-key") == "public-key" else { return nil }
        return object
    }

    static func response(_ json: String) -> [String: Any]? { object(json)?["response"] as? [String: Any] }

    static func bytes(_ value: Any?) -> [UInt8]? {
        guard let text = value as? String else { return nil }
        return Base64URL.decode(text, allowingPadding: true)
    }

    /// The challenge the client data names (base64url there), decoded; nil when the client data is not JSON with one.
    static func challenge(clientDataJSON: [UInt8]) -> [UInt8]? {
        guard clientDataJSON.count <= maximumLength,
              let object = try? JSONSerialization.jsonObject(with: Data(clientDataJSON)) as? [String: Any] else { return nil }
        return bytes(object["challenge"])
    }
}
