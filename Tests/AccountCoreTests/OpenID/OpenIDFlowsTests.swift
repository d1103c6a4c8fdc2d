// OpenIDFlowsTests.swift: the device flow (RFC 8628), pushed requests (RFC 9126), consent, clients and the
// back-channel logout queue.
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct OpenIDFlowsTests {
    @Test func theDeviceFlowPollsApprovesAndIssuesOnce() throws {
        let world = try OpenIDWorld()
        let start = try world.openID.startDevice(client: world.web, scopes: ["openid", "email"])
        #expect(start.userCode.count == 9 && start.userCode.dropFirst(4).first == "-" && start.interval == 5 && start.expiresIn == 600)
        #expect(start.userCode.filter { $0 != "-" }.allSatisfy { OpenIDGrants.userCodeAlphabet.contains($0) })
        #expect(throws: OpenIDError.authorizationPending) { _ = try world.openID.pollDevice(start.deviceCode, client: world.web) }
        world.fixture.clock.advance(by: 2)
        #expect(throws: OpenIDError.slowDown) { _ = try world.openID.pollDevice(start.deviceCode, client: world.web) }
        world.fixture.clock.advance(by: 10)   // the interval is now 10 s
        #expect(throws: OpenIDError.authorizationPending) { _ = try world.openID.pollDevice(start.deviceCode, client: world.web) }

        let typed = start.userCode.lowercased().replacingOccurrences(of: "-", with: "")
        #expect(try world.openID.pendingDevice(userCode: typed) == OpenIDPendingDevice(clientID: "web", scopes: ["openid", "email"]))
        #expect(try world.openID.approveDevice(userCode: typed, authentication: world.who))
        #expect(try !world.openID.denyDevice(userCode: start.userCode), "answered once")
        #expect(try world.openID.pendingDevice(userCode: start.userCode) == nil)
        var other = world.web
        other.id = "other"
        #expect(isInvalidGrant { _ = try world.openID.pollDevice(start.deviceCode, client: other) })
        let issued = try world.openID.pollDevice(start.deviceCode, client: world.web)
        #expect(issued.grant.accountID == world.accountID)
        #expect(isInvalidGrant { _ = try world.openID.pollDevice(start.deviceCode, client: world.web) }, "tokens once")
        #expect(try world.events().contains("oidc_device_approved"))
    }

    @Test func aDeniedOrExpiredDeviceGetsNothing() throws {
        let world = try OpenIDWorld()
        let denied = try world.openID.startDevice(client: world.web, scopes: ["openid"])
        #expect(try world.openID.denyDevice(userCode: denied.userCode, accountID: world.accountID))
        #expect(throws: OpenIDError.accessDenied) { _ = try world.openID.pollDevice(denied.deviceCode, client: world.web) }
        #expect(try world.events().contains("oidc_device_denied"))
        let late = try world.openID.startDevice(client: world.web, scopes: ["openid"])
        world.fixture.clock.advance(by: 601)
        #expect(try !world.openID.approveDevice(userCode: late.userCode, authentication: world.who))
        #expect(throws: OpenIDError.expiredToken) { _ = try world.openID.pollDevice(late.deviceCode, client: world.web) }
        #expect(try world.openID.pendingDevice(userCode: "BCDF-GHJA") == nil, "not of the alphabet")
    }

    /// RFC 8628 5.1: user codes are short, so guessing them is throttled. A wrong code counts as a failure of the client
    /// address (the sign-in lockout's address block: 50 in 10 minutes by default); a blocked address finds no code at
    /// all, not even a right one, while other addresses still do.
    @Test func guessingUserCodesBlocksTheAddress() throws {
        let world = try OpenIDWorld()
        let start = try world.openID.startDevice(client: world.web, scopes: ["openid"])
        let guesser = ClientInfo(remoteAddress: "203.0.113.5"), other = ClientInfo(remoteAddress: "198.51.100.7")
        for _ in 0..<50 { #expect(try world.openID.pendingDevice(userCode: "BCDF-GHJK", client: guesser) == nil) }
        #expect(try world.openID.pendingDevice(userCode: start.userCode, client: guesser) == nil, "blocked: even a right code")
        #expect(try world.openID.pendingDevice(userCode: start.userCode, client: other) != nil)
        #expect(try world.events().contains("address_blocked"))
    }

    @Test func aPushedRequestIsItsClientsOnceAndShortLived() throws {
        let world = try OpenIDWorld()
        let pushed = try world.openID.pushRequest(client: world.web, parameters: ["scope": "openid", "state": "é"])
        #expect(pushed.requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:") && pushed.expiresIn == 90)
        #expect(try world.openID.pushedRequest(pushed.requestURI, clientID: "app") == nil)
        #expect(try world.openID.pushedRequest(pushed.requestURI, clientID: "web") == ["scope": "openid", "state": "é"])
        #expect(try world.openID.markPushedRequestUsed(pushed.requestURI))
        #expect(try !world.openID.markPushedRequestUsed(pushed.requestURI))
        #expect(try world.openID.pushedRequest(pushed.requestURI, clientID: "web") == nil)
        let late = try world.openID.pushRequest(client: world.web, parameters: [:])
        world.fixture.clock.advance(by: 91)
        #expect(try world.openID.pushedRequest(late.requestURI, clientID: "web") == nil)
    }

    @Test func consentCoversWhatWasAgreedAndDisconnectEndsTheGrants() throws {
        let world = try OpenIDWorld()
        #expect(try !world.openID.hasConsent(accountID: world.accountID, clientID: "web", scopes: ["openid"]))
        try world.openID.grantConsent(accountID: world.accountID, clientID: "web", scopes: ["openid", "email"])
        #expect(try world.openID.hasConsent(accountID: world.accountID, clientID: "web", scopes: ["email"]))
        #expect(try !world.openID.hasConsent(accountID: world.accountID, clientID: "web", scopes: ["groups"]))
        let issued = try world.tokens()
        _ = try world.tokens(for: world.app)   // no consent: a first-party client, listed by its grant
        #expect(try world.openID.connectedApps(accountID: world.accountID).map(\.clientID) == ["app", "web"])
        try world.openID.disconnect(accountID: world.accountID, clientID: "web")
        #expect(try world.openID.accessToken(issued.accessToken) == nil && world.deliveries() == 1)
        #expect(try world.openID.connectedApps(accountID: world.accountID).map(\.clientID) == ["app"])
        #expect(try world.events().contains("oidc_consent_given") && world.events().contains("oidc_consent_withdrawn"))
    }

    @Test func databaseClientsAreAddedRotatedAndRemoved() throws {
        let world = try OpenIDWorld()
        let clients = OpenIDClients(database: world.fixture.database, clock: world.fixture.clock, random: SeededRandomSource(seed: 5),
                                    configured: [world.web])
        #expect(throws: OpenIDError.clientExists) { try clients.add(OpenIDClient(id: "web")) }
        let secret = try #require(try clients.add(OpenIDClient(id: "cli", redirectURIs: ["https://cli.example/cb", "http://127.0.0.1/cb"])))
        #expect(throws: OpenIDError.clientExists) { try clients.add(OpenIDClient(id: "cli")) }
        #expect(try clients.add(OpenIDClient(id: "native", isPublic: true)) == nil)
        let stored = try #require(try clients.client("cli"))
        #expect(stored.source == .database && stored.acceptsSecret(secret) && !stored.acceptsSecret(secret + "x"))
        #expect(stored.redirectURIs == ["https://cli.example/cb", "http://127.0.0.1/cb"])
        #expect(try clients.all().map(\.id) == ["web", "cli", "native"])
        let rotated = try clients.rotateSecret("cli")
        let after = try #require(try clients.client("cli"))
        #expect(after.acceptsSecret(rotated) && !after.acceptsSecret(secret))
        #expect(throws: OpenIDError.notADatabaseClient) { _ = try clients.rotateSecret("web") }
        #expect(throws: OpenIDError.invalidClient) { _ = try clients.rotateSecret("native") }
        #expect(try clients.remove("cli") && !clients.remove("cli"))
        #expect(try clients.client("cli") == nil)
        #expect(try world.events().filter { $0.hasPrefix("oidc_client") } == ["oidc_client_added", "oidc_client_added", "oidc_client_secret_rotated",
                                                                               "oidc_client_removed"])
        #expect(!OpenIDClient(id: "p", isPublic: true).acceptsSecret(""))
    }

    @Test func logoutDeliveriesRetryWithBackoffAndAreGivenUp() throws {
        let world = try OpenIDWorld()
        _ = try world.tokens()
        try world.fixture.services.sessions.revoke(token: world.session.token.encoded)
        let first = try world.openID.dueLogoutDeliveries(limit: 10)
        #expect(first.count == 1 && first[0].attempts == 0)
        #expect(try world.openID.dueLogoutDeliveries(limit: 10).isEmpty, "claimed: no other worker takes it")
        let clock = world.fixture.clock
        for attempt in 1...8 {
            try world.openID.logoutFailed(first[0].id, retryAt: clock.now() + Double(attempt * 10))
            clock.advance(by: Double(attempt * 10) - 1)
            #expect(try world.openID.dueLogoutDeliveries(limit: 10).isEmpty, "not before its retry time")
            clock.advance(by: 1)
            #expect(try world.openID.dueLogoutDeliveries(limit: 10).count == (attempt < 8 ? 1 : 0))
        }
        #expect(try world.events().contains("oidc_logout_abandoned"))
    }

    @Test func aDeliveredLogoutIsNotSentAgain() throws {
        let world = try OpenIDWorld()
        _ = try world.tokens()
        try world.fixture.services.sessions.revoke(token: world.session.token.encoded)
        let due = try world.openID.dueLogoutDeliveries(limit: 10)
        try world.openID.logoutDelivered(due[0].id)
        world.fixture.clock.advance(by: 3600)
        #expect(try world.openID.dueLogoutDeliveries(limit: 10).isEmpty)
    }
}
