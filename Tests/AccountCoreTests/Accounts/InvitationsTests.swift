// InvitationsTests.swift: issuing invitations, and sign-up in invite, open and closed mode.
import AccountRules
import Foundation
import Locking
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

/// Services with a sign-up mode, over an in-memory database (or a file, for real concurrency).
private struct InviteWorld {
    let clock = FixedClock()
    let database: AppDatabase
    let services: AccountServices
    static let lifetime: TimeInterval = 3 * 86400
    static let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

    init(_ mode: SignUpPolicy.Mode, confirmationRequired: Bool = true, path: String? = nil) throws {
        database = try path.map { try AppDatabase.open(path: $0) } ?? TestDatabase.make()
        let configuration = CoreConfiguration(password: PasswordPolicy(hashing: cheapHashing),
                                              mail: MailPolicy(confirmationRequired: confirmationRequired),
                                              signUp: SignUpPolicy(mode: mode, inviteLifetime: Self.lifetime))
        services = AccountServices(database: database, configuration: configuration, validator: AccountForms.signUp(),
                                   composer: LineComposer(), transport: OutboxTransport(folder: NSTemporaryDirectory() + "frontdoor-unused-outbox"),
                                   logger: Logger(label: "test"), clock: clock, random: SeededRandomSource(seed: 7))
    }

    func invite(_ email: String = "Ann@Example.com", mail: Bool = false) throws -> IssuedInvitation {
        try services.invitations.create(email: email, client: Self.cli, sendMail: mail)
    }

    func signUp(_ email: String, invite: String?, password: String = "correct horse") throws -> SignUpOutcome {
        var form = ["email": email, "password": password, "password_confirmation": password]
        form["invite"] = invite
        return try services.registration.signUp(form, client: ClientInfo(userAgent: "Browser/1", remoteAddress: "192.0.2.1"))
    }

    func count(_ table: String) throws -> Int {
        try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }
}

/// The field error keys of an `.invalid` error (empty for anything else).
private func errorKeys(_ error: AccountError?, _ field: String) -> [String] {
    guard case .invalid(let errors) = error else { return [] }
    return errors.keys(for: field)
}

struct InvitationsTests {
    @Test func anInvitationStoresOnlyTheDigestExpiresAfterItsLifetimeAndIsAudited() throws {
        let world = try InviteWorld(.invite)
        let issued = try world.invite("  Ann@Example.com ")
        #expect(issued.address == "Ann@Example.com")
        #expect(issued.expiresAt == world.clock.now().addingTimeInterval(InviteWorld.lifetime))
        let token = try #require(SecretToken(encoded: issued.token))
        let row = try #require(try world.database.read { tx in try tx.row("SELECT * FROM invite") })
        #expect(row["digest"] as Data == token.digest)
        #expect(row["normalizedAddress"] as String == "ann@example.com")
        #expect(row["usedAt"] as Double? == nil)
        #expect(!row.values.contains { "\($0)".contains(issued.token) }, "the raw token is not stored")
        let audit = try world.services.audit.list(AuditFilter(event: .inviteCreated))
        #expect(audit.map(\.email) == ["Ann@Example.com"] && audit.first?.userAgent == "frontdoor-cli")
        #expect(try world.count("mailQueue") == 0, "no mail unless asked")
        #expect(try world.services.invitations.invitation(token: issued.token) == "Ann@Example.com")
        world.clock.advance(by: InviteWorld.lifetime)
        #expect(try world.services.invitations.invitation(token: issued.token) == nil, "expired")
    }

    @Test func withMailTheInvitationLinkIsQueuedForTheAddress() throws {
        let world = try InviteWorld(.invite)
        let issued = try world.invite(mail: true)
        let mails = try world.services.mail.list()
        #expect(mails.map(\.kind) == ["invitation"] && mails.first?.recipient == "Ann@Example.com")
        let message = try world.database.read { tx in try tx.value(String.self, "SELECT message FROM mailQueue") }
        #expect(message?.contains(issued.token) == true)
    }

    @Test func malformedTakenOrClosedInvitationsAreRefusedAndWriteNothing() throws {
        let world = try InviteWorld(.invite, confirmationRequired: false)
        #expect(errorKeys(#expect(throws: AccountError.self) { try world.invite("not-an-address") }, "email") == ["invalid_email"])
        let issued = try world.invite("ann@example.com")
        _ = try world.signUp("ann@example.com", invite: issued.token)
        #expect(errorKeys(#expect(throws: AccountError.self) { try world.invite("ANN@example.com") }, "email") == ["taken"])
        let closed = try InviteWorld(.closed)
        #expect(throws: AccountError.signUpClosed) { try closed.invite() }
        #expect(try [world.count("invite"), closed.count("invite"), closed.count("audit")] == [1, 0, 0])
    }

    @Test func unknownMalformedAndUsedTokensNameNoAddress() throws {
        let world = try InviteWorld(.invite)
        #expect(try world.services.invitations.invitation(token: "nonsense") == nil)
        #expect(try world.services.invitations.invitation(token: SecretToken(random: SeededRandomSource(seed: 99)).encoded) == nil)
        let issued = try world.invite()
        _ = try world.signUp("ann@example.com", invite: issued.token)
        #expect(try world.services.invitations.invitation(token: issued.token) == nil)
    }

    @Test func theInvitedAddressSignsUpConfirmedAndSignedInAndTheLinkWorksOnce() throws {
        // Given invite mode with confirmation required, and an invitation for Ann@Example.com
        let world = try InviteWorld(.invite, confirmationRequired: true)
        let issued = try world.invite()
        // When she signs up with it (in other case)
        let outcome = try world.signUp("ann@EXAMPLE.com", invite: issued.token)
        // Then she is signed in, her address confirmed, the invitation used and no confirmation mailed
        guard case .signedIn(let grant) = outcome else { Issue.record("expected .signedIn, got \(outcome)"); return }
        #expect(grant.session.email == "ann@EXAMPLE.com")
        let address = try #require(try world.database.read { tx in try tx.row("SELECT * FROM emailAddress").map(EmailAddress.init(row:)) })
        #expect(address.verifiedAt == world.clock.now())
        let usedAt = try world.database.read { tx in try tx.value(Double.self, "SELECT usedAt FROM invite") }
        #expect(usedAt == world.clock.now().timeIntervalSince1970)
        #expect(try [world.count("accountToken"), world.count("mailQueue")] == [0, 0])
        #expect(try world.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                         client: ClientInfo()).session.accountId == grant.session.accountId)
        // And the link does not work a second time
        #expect(throws: AccountError.invitationRequired) { try world.signUp("ann@example.com", invite: issued.token) }
        #expect(try world.count("account") == 1)
    }

    @Test func inviteModeWithoutAValidInvitationCreatesNothing() throws {
        let world = try InviteWorld(.invite, confirmationRequired: false)
        #expect(throws: AccountError.invitationRequired) { try world.signUp("ann@example.com", invite: nil) }
        #expect(throws: AccountError.invitationRequired) { try world.signUp("ann@example.com", invite: "bogus") }
        let issued = try world.invite()
        world.clock.advance(by: InviteWorld.lifetime + 1)
        #expect(throws: AccountError.invitationRequired) { try world.signUp("ann@example.com", invite: issued.token) }
        #expect(try [world.count("account"), world.count("emailAddress"), world.count("session")] == [0, 0, 0])
    }

    @Test func anotherAddressOrABadFormLeavesTheInvitationUnused() throws {
        let world = try InviteWorld(.invite)
        let issued = try world.invite()
        let other = #expect(throws: AccountError.self) { try world.signUp("bob@example.com", invite: issued.token) }
        #expect(errorKeys(other, "email") == ["not_invited"])
        guard case .invalid(let errors) = other else { return }
        #expect(errors.messages(for: "email", in: .english) == ["Email is not the address this invitation is for"])
        let short = #expect(throws: AccountError.self) { try world.signUp("ann@example.com", invite: issued.token, password: "abc") }
        #expect(errorKeys(short, "password") == ["too_short"])
        #expect(try world.count("account") == 0)
        #expect(try world.services.invitations.invitation(token: issued.token) == "Ann@Example.com", "still usable")
        guard case .signedIn = try world.signUp("ann@example.com", invite: issued.token) else { Issue.record("expected .signedIn"); return }
    }

    @Test func ofTwoSimultaneousSignUpsWithOneLinkExactlyOneWins() throws {
        let path = NSTemporaryDirectory() + "frontdoor-invite-race-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let world = try InviteWorld(.invite, path: path)
        let issued = try world.invite()
        // The conditional UPDATE itself: a second redemption finds the row used.
        let first = try world.database.write { tx in try world.services.invitations.redeem(token: issued.token, address: "ann@example.com", in: tx) }
        let second = try world.database.write { tx in try world.services.invitations.redeem(token: issued.token, address: "ann@example.com", in: tx) }
        #expect(first && !second)
        // Whole sign-ups racing on a fresh link: one account, the others refused.
        let fresh = try world.invite("bob@example.com")
        let lock = Lock()
        nonisolated(unsafe) var wins = 0
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if case .signedIn? = try? world.signUp("bob@example.com", invite: fresh.token) { lock.withLock { wins += 1 } }
        }
        #expect(wins == 1)
        #expect(try world.count("account") == 1)
    }

    @Test func closedModeRefusesEverySignUp() throws {
        let world = try InviteWorld(.closed, confirmationRequired: false)
        #expect(throws: AccountError.signUpClosed) { try world.signUp("ann@example.com", invite: nil) }
        #expect(throws: AccountError.signUpClosed) { try world.signUp("ann@example.com", invite: "anything") }
        #expect(try world.count("account") == 0)
    }

    @Test func openModeSignsUpAsBeforeAndAnInvitationConfirmsTheAddress() throws {
        let world = try InviteWorld(.open, confirmationRequired: true)
        guard case .confirmationSent = try world.signUp("bob@example.com", invite: nil) else { Issue.record("expected .confirmationSent"); return }
        guard case .confirmationSent = try world.signUp("bob@example.com", invite: "bogus") else { Issue.record("a bad invite is ignored"); return }
        let issued = try world.invite("ann@example.com")
        guard case .signedIn = try world.signUp("ann@example.com", invite: issued.token) else { Issue.record("expected .signedIn"); return }
        #expect(try world.count("account") == 2, "bob's second sign-up created nothing")
        #expect(try world.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM emailAddress WHERE verifiedAt IS NOT NULL")
        } == 1)
    }
}
