// OpenIDCodeTests.swift: authorization codes (single use, short-lived, their client and redirect URI, PKCE S256) and
// what a replay does (the grant it issued is revoked, committed, then invalid_grant).
import Foundation
import Testing
@testable import AccountCore

struct OpenIDCodeTests {
    @Test func aCodeGivesTokensOnceAndItsReplayRevokesThem() throws {
        let world = try OpenIDWorld()
        let code = try world.code(for: world.web)
        let issued = try world.openID.redeemCode(code, client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
        #expect(issued.grant.accountID == world.accountID && issued.grant.nonce == "n-1" && issued.expiresIn == 600)
        #expect(try world.openID.accessToken(issued.accessToken)?.grant.id == issued.grant.id)

        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil) })
        #expect(try world.openID.accessToken(issued.accessToken) == nil, "the replay revoked the grant, and that was committed")
        #expect(isInvalidGrant { _ = try world.openID.refresh(issued.refreshToken!, client: world.web, scopes: nil) })
        #expect(try world.events().contains("oidc_code_reused"))
    }

    @Test func anExpiredCodeAnotherClientsCodeAndAnotherRedirectAreRefused() throws {
        let world = try OpenIDWorld()
        let code = try world.code(for: world.web)
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: world.web, redirectURI: "https://evil.example/cb", codeVerifier: nil) })
        var other = world.web
        other.id = "other"
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: other, redirectURI: "https://web.example/cb", codeVerifier: nil) })
        world.fixture.clock.advance(by: 61)
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil) })
        #expect(try world.fixture.count("openIDGrant") == 0)
    }

    @Test func pkceIsCheckedAndRequiredOfPublicClients() throws {
        let world = try OpenIDWorld()
        let withoutChallenge = try world.code(for: world.app)
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(withoutChallenge, client: world.app, redirectURI: "com.example.app:/cb",
                                                                 codeVerifier: OpenIDWorld.verifier) })
        let code = try world.code(for: world.app, challenge: OpenIDWorld.challenge)
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: world.app, redirectURI: "com.example.app:/cb",
                                                                 codeVerifier: String(repeating: "a", count: 43)) })
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: world.app, redirectURI: "com.example.app:/cb", codeVerifier: nil) })
        let issued = try world.openID.redeemCode(code, client: world.app, redirectURI: "com.example.app:/cb", codeVerifier: OpenIDWorld.verifier)
        #expect(issued.grant.clientID == "app")
        // A confidential client that sent a challenge must send the verifier too.
        let confidential = try world.code(for: world.web, challenge: OpenIDWorld.challenge)
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(confidential, client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil) })
    }

    @Test func aCodeOfASessionThatEndedGivesNothing() throws {
        let world = try OpenIDWorld()
        let code = try world.code(for: world.web)
        try world.fixture.services.sessions.revoke(token: world.session.token.encoded)
        #expect(isInvalidGrant { _ = try world.openID.redeemCode(code, client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil) })
    }

    @Test func subjectsAreStablePairwisePerClientAndSidIsPerSession() throws {
        let world = try OpenIDWorld()
        let first = try world.openID.subject(accountID: world.accountID, client: world.web)
        #expect(try world.openID.subject(accountID: world.accountID, client: world.app) == first, "public: one sub for every client")
        var pairwise = world.web
        pairwise.subjectType = .pairwise
        let paired = try world.openID.subject(accountID: world.accountID, client: pairwise)
        pairwise.id = "web2"
        let pairedElsewhere = try world.openID.subject(accountID: world.accountID, client: pairwise)
        #expect(paired != first && pairedElsewhere != paired)
        #expect(try world.openID.subject(accountID: world.accountID + 1, client: world.web) != first)
        // Another host on the same database agrees (the key is in the database).
        let other = OpenIDGrants(database: world.fixture.database, audit: world.fixture.services.audit, clock: FixedClock(),
                                 random: SeededRandomSource(seed: 99), logger: .init(label: "other"))
        #expect(try other.subject(accountID: world.accountID, client: world.web) == first)
        let a = try world.tokens(), b = try world.tokens(for: world.app)
        #expect(a.grant.sid == b.grant.sid && a.grant.sid == world.openID.sid(sessionDigest: world.session.token.digest))
    }
}
