// OpenIDRefreshTests.swift: refresh tokens rotate; a used one presented again revokes the family (committed, then
// invalid_grant); tokens and refreshes end with the clock and with the session's expiry; introspection and revocation.
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

    /// An app that refreshes is the person at work: each refresh counts as a use of the Frontdoor session (as a page
    /// view does), so a session without "remember me" stays alive while its apps are used, and idles out once they stop.
    @Test func aRefreshKeepsTheSessionInUse() throws {
        let world = try OpenIDWorld()   // not remembered: ends after 30 min unused
        var issued = try world.tokens()
        for _ in 0..<4 {   // two hours of an app refreshing every 25 minutes, no visit to Frontdoor's pages
            world.fixture.clock.advance(by: 1500)
            issued = try world.openID.refresh(issued.refreshToken!, client: world.web, scopes: nil)
        }
        world.fixture.clock.advance(by: 1801)
        #expect(isInvalidGrant { _ = try world.openID.refresh(issued.refreshToken!, client: world.web, scopes: nil) }, "idle once the app stops")
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
