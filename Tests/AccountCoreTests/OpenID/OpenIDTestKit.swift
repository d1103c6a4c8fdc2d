// OpenIDTestKit.swift: a signed-in person and two clients for the OpenID provider's tests (suite backend).
import Crypto
import Encodings
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

/// A fixture with Ann signed in, a confidential client with a back-channel URI and a public client.
struct OpenIDWorld {
    let fixture: TestFixture
    let session: SessionGrant
    let web = OpenIDClient(id: "web", secretDigests: [OpenIDClient.digest(ofSecret: "web-secret")], redirectURIs: ["https://web.example/cb"],
                           backchannelLogoutURI: "https://web.example/logout")
    let app = OpenIDClient(id: "app", isPublic: true, redirectURIs: ["com.example.app:/cb"])
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"   // RFC 7636 appendix B

    init(seed: UInt64 = 1, rememberMe: Bool = false) throws {
        fixture = try TestFixture(seed: seed)
        try fixture.signUp()
        session = try fixture.signIn(rememberMe: rememberMe)
    }

    var openID: OpenIDGrants { fixture.services.openID }
    var accountID: Int64 { session.session.accountId }

    var who: OpenIDAuthentication {
        OpenIDAuthentication(accountID: accountID, sessionDigest: session.token.digest, authTime: fixture.clock.now(), factors: 1)
    }

    func code(for client: OpenIDClient, challenge: String? = nil, nonce: String? = "n-1") throws -> String {
        try openID.issueCode(OpenIDCodeRequest(clientID: client.id, redirectURI: client.redirectURIs[0], scopes: ["openid", "email"],
                                               nonce: nonce, codeChallenge: challenge, authentication: who))
    }

    func tokens(for client: OpenIDClient? = nil) throws -> OpenIDIssued {
        let client = client ?? web
        let isPublic = client.isPublic
        let code = try code(for: client, challenge: isPublic ? Self.challenge : nil)
        return try openID.redeemCode(code, client: client, redirectURI: client.redirectURIs[0], codeVerifier: isPublic ? Self.verifier : nil)
    }

    func events() throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT event FROM audit ORDER BY id") }
    }

    func deliveries() throws -> Int { try fixture.count("openIDLogoutDelivery") }
}

/// Whether `body` throws `OpenIDError.invalidGrant` (any reason).
func isInvalidGrant(_ body: () throws -> Void) -> Bool {
    do { try body() } catch OpenIDError.invalidGrant { return true } catch { return false }
    return false
}
