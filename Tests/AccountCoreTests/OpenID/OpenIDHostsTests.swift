// OpenIDHostsTests.swift: the provider on two hosts sharing one database (SeveralHostsTests' hosts: SQLite file or
// PostgreSQL): every state is a row, so a code issued on A is redeemed on B, a refresh rotated on A goes on from B,
// a replay on B revokes what A issued, and racers on both hosts have one winner.
import Foundation
import Locking
import StorageTestKit
import Testing
@testable import AccountCore

extension SeveralHostsTests {
    private static let web = OpenIDClient(id: "web", secretDigests: [OpenIDClient.digest(ofSecret: "s")], redirectURIs: ["https://web.example/cb"],
                                          backchannelLogoutURI: "https://web.example/logout")

    private func signedIn(_ hosts: Hosts) throws -> (grant: SessionGrant, who: OpenIDAuthentication) {
        guard case .signedIn(let grant) = try hosts.a.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo()) else {
            throw FixtureError("no session")
        }
        return (grant, OpenIDAuthentication(accountID: grant.session.accountId, sessionDigest: grant.token.digest, authTime: hosts.clock.now(), factors: 1))
    }

    private func code(_ host: Host, _ who: OpenIDAuthentication) throws -> String {
        try host.services.openID.issueCode(OpenIDCodeRequest(clientID: "web", redirectURI: "https://web.example/cb", scopes: ["openid"], authentication: who))
    }

    @Test func aCodeFromARedeemedOnBAndARefreshRotatedOnAGoesOnFromB() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let (_, who) = try signedIn(hosts)
        let first = try hosts.b.services.openID.redeemCode(try code(hosts.a, who), client: Self.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
        let rotated = try hosts.a.services.openID.refresh(first.refreshToken!, client: Self.web, scopes: nil)
        let again = try hosts.b.services.openID.refresh(rotated.refreshToken!, client: Self.web, scopes: nil)
        #expect(try hosts.a.services.openID.accessToken(again.accessToken)?.grant.id == first.grant.id)
        #expect(try hosts.a.services.openID.subject(accountID: who.accountID, client: Self.web)
                == hosts.b.services.openID.subject(accountID: who.accountID, client: Self.web), "one subject key for every host")
        // The replay on B of what A rotated revokes the family for both.
        #expect(isInvalidGrant { _ = try hosts.b.services.openID.refresh(first.refreshToken!, client: Self.web, scopes: nil) })
        #expect(try hosts.a.services.openID.accessToken(again.accessToken) == nil)
    }

    @Test func racersOnTwoHostsRedeemOneCodeAndSignOutOnAEndsWhatBIssued() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let (grant, who) = try signedIn(hosts)
        let once = try code(hosts.a, who)
        let winners = Locked(0)
        _ = together(2) { index in
            let host = index == 0 ? hosts.a : hosts.b
            _ = try host.services.openID.redeemCode(once, client: Self.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
            winners.change { $0 += 1 }
        }
        #expect(winners.withLock { $0 } == 1)

        let live = try hosts.b.services.openID.redeemCode(try code(hosts.b, who), client: Self.web, redirectURI: "https://web.example/cb", codeVerifier: nil)
        try hosts.a.services.sessions.revoke(token: grant.token.encoded)
        #expect(try hosts.b.services.openID.accessToken(live.accessToken) == nil)
        #expect(isInvalidGrant { _ = try hosts.b.services.openID.refresh(live.refreshToken!, client: Self.web, scopes: nil) })
        let due = try hosts.b.services.openID.dueLogoutDeliveries(limit: 10)
        #expect(due.count == 1 && due[0].sid == live.grant.sid, "one delivery per client and session")
        #expect(try hosts.a.services.openID.dueLogoutDeliveries(limit: 10).isEmpty, "B holds it")
    }
}
