// OpenIDPruningTests.swift: the pruner (Retention+Expiry) deletes the provider's ended rows and keeps the live ones.
import Foundation
import Testing
@testable import AccountCore

struct OpenIDPruningTests {
    @Test func thePrunerDeletesWhatEndedAndKeepsWhatLives() throws {
        let world = try OpenIDWorld(rememberMe: true)
        let live = try world.tokens()
        _ = try world.code(for: world.web)
        _ = try world.openID.startDevice(client: world.web, scopes: ["openid"])
        _ = try world.openID.pushRequest(client: world.web, parameters: [:])
        let revoked = try world.tokens()
        try world.openID.revoke(revoked.refreshToken!, client: world.web)
        world.fixture.clock.advance(by: 3601)   // codes, access tokens, devices, pushed requests are over; refresh tokens live
        let ended = try world.fixture.services.retention.deleteEnded()
        #expect(ended[.openIDCodes] == 3 && ended[.openIDDevices] == 1 && ended[.openIDPushedRequests] == 1)
        #expect(ended[.openIDGrants] == 1, "the revoked grant, with its tokens")
        #expect(try world.fixture.count("openIDGrant") == 1 && world.fixture.count("openIDToken") == 1, "the live grant's refresh token")
        #expect(try world.openID.refresh(live.refreshToken!, client: world.web, scopes: nil).grant.id == live.grant.id)
    }
}
