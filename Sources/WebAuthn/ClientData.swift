// ClientData.swift: the browser's account of a ceremony (clientDataJSON, WebAuthn §5.8.1) and its checks:
//   type       "webauthn.create" at registration, "webauthn.get" at an assertion (so a signature made for one
//              ceremony is never taken for the other);
//   challenge  base64url (no padding) of the bytes the server issued, compared in constant time;
//   origin     exactly one of the relying party's origins (scheme, host and port as the browser writes them);
//   crossOrigin  true is refused: Frontdoor's pages are never framed by another site, so such a ceremony is not ours.
// topOrigin, tokenBinding and any other member are ignored. The JSON is read with Foundation's decoder; the hash the
// signature covers is taken over the bytes as sent, never over a re-encoding.
import Encodings
import Foundation

@_spi(Testing) public struct ClientData: Sendable, Decodable {
    public enum Ceremony: String, Sendable {
        case registration = "webauthn.create"
        case assertion = "webauthn.get"
    }

    public let type: String
    public let challenge: String
    public let origin: String
    public let crossOrigin: Bool?

    /// `.malformed(.clientData)` unless `bytes` is a JSON object with string members type, challenge and origin.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        do { self = try JSONDecoder().decode(ClientData.self, from: Data(bytes)) } catch {
            throw .malformed(.clientData)
        }
    }

    /// Runs the checks above in the spec's order: type, challenge, origin, then crossOrigin.
    public func check(ceremony: Ceremony, challenge expected: [UInt8], origins: [String]) throws(WebAuthnError) {
        guard type == ceremony.rawValue else { throw .wrongType }
        guard let sent = Base64URL.decode(challenge), Self.constantTimeEqual(sent, expected) else {
            throw .challengeMismatch
        }
        guard origins.contains(where: { $0.utf8.elementsEqual(origin.utf8) }) else { throw .originNotAllowed }
        guard crossOrigin != true else { throw .crossOrigin }
    }

    /// Equal bytes, in a time that depends only on the lengths (the expected challenge is the secret side; its length
    /// is not a secret).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
