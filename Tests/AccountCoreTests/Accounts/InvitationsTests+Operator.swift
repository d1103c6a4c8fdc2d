// InvitationsTests+Operator.swift: what `frontdoor invite list|revoke` calls: listing the invitations and revoking the
// unused ones of an address.
import AccountRules
import Foundation
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

private let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

/// Services in invite mode over a fresh database (the backend under test), with a clock the test moves.
private struct OperatorWorld {
    let clock = FixedClock()
    let database: AppDatabase
    let services: AccountServices

    init() throws {
        database = try TestDatabase.make()
        let configuration = CoreConfiguration(password: PasswordPolicy(hashing: cheapHashing),
                                              signUp: SignUpPolicy(mode: .invite, inviteLifetime: 86400))
        services = AccountServices(database: database, configuration: configuration, validator: AccountForms.signUp(),
                                   composer: LineComposer(), transport: OutboxTransport(folder: NSTemporaryDirectory() + "frontdoor-unused-outbox"),
                                   logger: Logger(label: "test"), clock: clock, random: SeededRandomSource(seed: 11))
    }

    func invite(_ email: String) throws -> IssuedInvitation {
        let issued = try services.invitations.create(email: email, client: cli)
        clock.advance(by: 60)
        return issued
    }

    func signUp(_ email: String, invite: String) throws -> SignUpOutcome {
        try services.registration.signUp(["email": email, "password": "correct horse", "password_confirmation": "correct horse",
                                          "invite": invite], client: ClientInfo(userAgent: "Browser/1", remoteAddress: "192.0.2.1"))
    }
}

struct InvitationOperatorTests {
    @Test func theListShowsOpenInvitationsNewestFirstAndAllOfThemWithTheirState() throws {
        // Given an invitation used, one expired and two open
        let world = try OperatorWorld()
        let used = try world.invite("used@example.com")
        _ = try world.signUp("used@example.com", invite: used.token)
        _ = try world.invite("expired@example.com")
        world.clock.advance(by: 86400 - 100)
        _ = try world.invite("open@example.com")
        _ = try world.invite("newest@example.com")
        // Then the default list has the open ones, newest first; --all has every one, each with its state
        let open = try world.services.invitations.list()
        #expect(open.map(\.address) == ["newest@example.com", "open@example.com"])
        #expect(open.allSatisfy { $0.state == "open" && $0.usedAt == nil })
        let all = try world.services.invitations.list(all: true)
        #expect(all.map { "\($0.address) \($0.state)" }
                == ["newest@example.com open", "open@example.com open", "expired@example.com expired", "used@example.com used"])
        #expect(all.last?.usedAt != nil)
        #expect(try world.services.invitations.list(all: true, limit: 1).count == 1)
    }

    @Test func revokingStopsTheUnusedLinksOfTheAddressOnlyAndIsAudited() throws {
        // Given two open invitations for Ann (in two spellings) and one for Bob
        let world = try OperatorWorld()
        let first = try world.invite("Ann@Example.com")
        let second = try world.invite("ann@example.com")
        let bob = try world.invite("bob@example.com")
        // When the operator revokes Ann's
        #expect(try world.services.invitations.revoke(email: " ANN@example.com ", client: cli) == 2)
        // Then neither of her links works, Bob's still does, and the revocation is in the audit trail
        #expect(try world.services.invitations.invitation(token: first.token) == nil)
        #expect(throws: AccountError.invitationRequired) { try world.signUp("ann@example.com", invite: second.token) }
        #expect(try world.services.invitations.invitation(token: bob.token) == "bob@example.com")
        let audit = try world.services.audit.list(AuditFilter(event: .inviteRevoked))
        #expect(audit.map(\.detail) == ["2"] && audit.first?.email == "ANN@example.com")
        // And revoking again finds nothing, writing nothing
        #expect(try world.services.invitations.revoke(email: "ann@example.com", client: cli) == 0)
        #expect(try world.services.audit.list(AuditFilter(event: .inviteRevoked)).count == 1)
    }

    @Test func aUsedInvitationIsNotRevokedSoTheListStillShowsWhoCameIn() throws {
        let world = try OperatorWorld()
        let used = try world.invite("ann@example.com")
        guard case .signedIn = try world.signUp("ann@example.com", invite: used.token) else { Issue.record("expected .signedIn"); return }
        #expect(try world.services.invitations.revoke(email: "ann@example.com", client: cli) == 0)
        #expect(try world.services.invitations.list(all: true).map(\.state) == ["used"])
    }
}
