// OpenIDRefreshTests.swift: refresh tokens rotate; a used one presented again revokes the family (committed, then
// invalid_grant); a grant ends with its Frontdoor session, by any path that deletes the session row, or by expiry.
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct OpenIDRefreshTests {
    @Test func rotationGivesNewTokensAndAReuseRevokesTheFamily() throws {
        let world = try OpenIDWorld()
        let first = try world.tokens()
        let second = try world.openID.refresh(first.refreshToken!, client: world.web, scopes: ["openid"])
        #expect(second.grant.id == first.grant.id && second.scopes == ["openid"] && second.refreshToken != first.refreshToken)
        #expect(throws: OpenIDError.invalidScope) { _ = try world.openID.refresh(second.refreshToken!, client: world.web, scopes: ["groups"]) }
        var other = world.web
        other.id = "other"
        #expect(isInvalidGrant { _ = try world.openID.refresh(second.refreshToken!, client: other, scopes: nil) })
        #expect(try world.openID.accessToken(second.accessToken) != nil, "a wrong client or scope revokes nothing")

        #expect(isInvalidGrant { _ = try world.openID.refresh(first.refreshToken!, client: world.web, scopes: nil) })
        #expect(try world.openID.accessToken(second.accessToken) == nil && world.openID.accessToken(first.accessToken) == nil)
        #expect(isInvalidGrant { _ = try world.openID.refresh(second.refreshToken!, client: world.web, scopes: nil) }, "the family is revoked")
        #expect(try world.events().contains("oidc_refresh_token_reused"))
    }

    @Test func tokensExpireWithTheClock() throws {
        let world = try OpenIDWorld(rememberMe: true)
        let issued = try world.tokens()
        world.fixture.clock.advance(by: 3601)
        #expect(try world.openID.accessToken(issued.accessToken) == nil)
        let again = try world.openID.refresh(issued.refreshToken!, client: world.web, scopes: nil)
        #expect(try world.openID.accessToken(again.accessToken) != nil)
    }

    @Test func aRefreshFailsOnceTheSessionHasExpiredEvenBeforeThePrunerRuns() throws {
        let world = try OpenIDWorld()   // not remembered: ends after 30 min unused, 12 h at most
        let issued = try world.tokens()
        world.fixture.clock.advance(by: 1801)
        #expect(isInvalidGrant { _ = try world.openID.refresh(issued.refreshToken!, client: world.web, scopes: nil) })
        #expect(try world.openID.introspect(issued.refreshToken!, client: world.web) == nil)
        #expect(try world.fixture.count("session") == 2, "the rows (sign-up's and sign-in's) are still there: the rule, not the pruner, refused")
    }

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

    @Test func introspectionAndRevocation() throws {
        let world = try OpenIDWorld()
        let issued = try world.tokens()
        #expect(try world.openID.introspect(issued.accessToken, client: world.web)?.kind == .accessToken)
        #expect(try world.openID.introspect(issued.refreshToken!, client: world.web)?.kind == .refreshToken)
        #expect(try world.openID.introspect(issued.accessToken, client: world.app) == nil, "another client's token is inactive to it")
        try world.openID.revoke(issued.accessToken, client: world.app)
        #expect(try world.openID.accessToken(issued.accessToken) != nil, "another client cannot revoke it")
        try world.openID.revoke(issued.accessToken, client: world.web)
        #expect(try world.openID.accessToken(issued.accessToken) == nil)
        #expect(try world.openID.introspect(issued.refreshToken!, client: world.web) != nil, "an access token ends alone")
        try world.openID.revoke(issued.refreshToken!, client: world.web)
        #expect(isInvalidGrant { _ = try world.openID.refresh(issued.refreshToken!, client: world.web, scopes: nil) })
        try world.openID.revoke("not-a-token", client: world.web)
    }
}

struct OpenIDSessionEndTests {
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
