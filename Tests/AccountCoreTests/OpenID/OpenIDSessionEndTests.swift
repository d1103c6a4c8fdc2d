// OpenIDSessionEndTests.swift: ending a Frontdoor session by any path that deletes its row (sign-out, sessions page,
// sign out elsewhere, password change, account deletion) revokes its grants and queues back-channel logouts, in the
// same transaction.
import Foundation
import Testing
@testable import AccountCore

struct OpenIDSessionEndTests {
    @Test func signingOutRevokesTheSessionsGrantsAndQueuesBackChannelLogouts() throws {
        let world = try OpenIDWorld()
        let web = try world.tokens(), app = try world.tokens(for: world.app)
        try world.fixture.services.sessions.revoke(token: world.session.token.encoded)
        #expect(try world.openID.accessToken(web.accessToken) == nil && world.openID.accessToken(app.accessToken) == nil)
        #expect(isInvalidGrant { _ = try world.openID.refresh(web.refreshToken!, client: world.web, scopes: nil) })
        let due = try world.openID.dueLogoutDeliveries(limit: 10)
        #expect(due.map(\.clientID) == ["web"], "only the client with a back-channel URI")
        #expect(due.first?.sid == web.grant.sid && due.first?.accountID == world.accountID)
        #expect(try world.fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM openIDGrant WHERE revokedAt IS NULL") } == 0)
    }

    @Test func everyPathThatEndsSessionsEndsTheirGrants() throws {
        let world = try OpenIDWorld()
        let here = try world.tokens()
        let otherSession = try world.fixture.signIn()
        let other = try world.openID.redeemCode(
            try world.openID.issueCode(OpenIDCodeRequest(clientID: "web", redirectURI: "https://web.example/cb", scopes: ["openid"],
                                                         authentication: OpenIDAuthentication(accountID: world.accountID,
                                                                                              sessionDigest: otherSession.token.digest,
                                                                                              authTime: world.fixture.clock.now(), factors: 1))),
            client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
        // "Sign out everywhere else" keeps this session's grant and ends the other's.
        #expect(try world.fixture.services.sessionManagement.revokeOthers(accountId: world.accountID, except: world.session.token.digest,
                                                                           client: ClientInfo()) == 2, "sign-up's session and the other")
        #expect(try world.openID.accessToken(here.accessToken) != nil && world.openID.accessToken(other.accessToken) == nil)
        #expect(try world.deliveries() == 1)
        // The account's deletion by the operator: the rest ends, the delivery outlives the account.
        _ = try world.fixture.services.administration.delete(accountId: world.accountID, client: ClientInfo())
        #expect(try world.openID.accessToken(here.accessToken) == nil)
        #expect(try world.deliveries() == 2 && world.fixture.count("openIDGrant") == 0)
    }

    @Test func thePasswordChangeThatEndsOtherSessionsEndsTheirGrants() throws {
        let world = try OpenIDWorld()
        let here = try world.tokens()
        let otherSession = try world.fixture.signIn()
        let other = try world.openID.redeemCode(
            try world.openID.issueCode(OpenIDCodeRequest(clientID: "web", redirectURI: "https://web.example/cb", scopes: ["openid"],
                                                         authentication: OpenIDAuthentication(accountID: world.accountID,
                                                                                              sessionDigest: otherSession.token.digest,
                                                                                              authTime: world.fixture.clock.now(), factors: 1))),
            client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
        try world.fixture.database.write { tx in
            _ = try tx.deleteSessions(of: world.accountID, keeping: world.session.token.digest, at: world.fixture.clock.now())
        }
        #expect(try world.openID.accessToken(here.accessToken) != nil && world.openID.accessToken(other.accessToken) == nil)
    }

    @Test func theSessionsPageRevokeEndsTheSessionsGrants() throws {
        let world = try OpenIDWorld()
        let issued = try world.tokens()
        let handle = try world.fixture.services.sessionManagement.list(accountId: world.accountID, current: Data())
            .first { $0.session.digest == world.session.token.digest }
        let entry = try #require(handle)
        try world.fixture.services.sessionManagement.revoke(handle: entry.handle, accountId: world.accountID, client: ClientInfo())
        #expect(try world.openID.accessToken(issued.accessToken) == nil && world.deliveries() == 1)
    }
}
