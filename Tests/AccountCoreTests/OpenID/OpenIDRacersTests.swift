// OpenIDRacersTests.swift: one-winner rules with real threads on the suite's backend. The rule (OpenIDGrants.swift):
// a secret presented twice is a replay even when the two arrive together, so of two racers redeeming one code, or
// rotating one refresh token, exactly one gets tokens, and the other's replay revokes the grant those tokens belong to.
import Foundation
import Locking
import StorageTestKit
import Testing
@testable import AccountCore

struct OpenIDRacersTests {
    @Test func twoRacersRedeemOneCodeAndExactlyOneGetsTokens() throws {
        let world = try OpenIDWorld()
        let code = try world.code(for: world.web)
        let issued = Locked<[OpenIDIssued]>([])
        let errors = Racers.outcomes(2) { _ in
            let tokens = try world.openID.redeemCode(code, client: world.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
            issued.change { $0.append(tokens) }
        }
        let winners = issued.withLock { $0 }
        #expect(winners.count == 1)
        #expect(errors.compactMap { $0 }.count == 1 && errors.compactMap { $0 }.allSatisfy { ($0 as? OpenIDError).map { if case .invalidGrant = $0 { true } else { false } } ?? false })
        #expect(try world.fixture.count("openIDGrant") == 1)
        #expect(try world.openID.accessToken(winners[0].accessToken) == nil, "the loser's replay revoked the winner's grant")
    }

    @Test func twoRacersRotateOneRefreshTokenAndExactlyOneGetsANewOne() throws {
        let world = try OpenIDWorld()
        let first = try world.tokens()
        let issued = Locked<[OpenIDIssued]>([])
        let errors = Racers.outcomes(2) { _ in
            let tokens = try world.openID.refresh(first.refreshToken!, client: world.web, scopes: nil)
            issued.change { $0.append(tokens) }
        }
        let winners = issued.withLock { $0 }
        #expect(winners.count == 1 && errors.compactMap { $0 }.count == 1)
        #expect(try world.fixture.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM openIDToken WHERE kind = 'refresh'")
        } == 2, "the first and exactly one rotation")
        #expect(isInvalidGrant { _ = try world.openID.refresh(winners[0].refreshToken!, client: world.web, scopes: nil) },
                "the loser's reuse revoked the family")
        #expect(try world.events().filter { $0 == "oidc_refresh_token_reused" }.count == 1)
    }

    @Test func twoDevicePollsAfterApprovalIssueTokensOnce() throws {
        let world = try OpenIDWorld()
        let start = try world.openID.startDevice(client: world.web, scopes: ["openid"])
        #expect(try world.openID.approveDevice(userCode: start.userCode, authentication: world.who))
        let issued = Locked(0)
        _ = Racers.outcomes(2) { _ in
            _ = try world.openID.pollDevice(start.deviceCode, client: world.web)
            issued.change { $0 += 1 }
        }
        let grants = try world.fixture.count("openIDGrant")
        #expect(issued.withLock { $0 } == 1 && grants == 1)
    }
}
