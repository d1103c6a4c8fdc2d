@testable import AccountCore
import Foundation
import IPAddresses
import Testing

/// The behaviour table, purpose sign_in (SocialSignIn.swift).
struct SocialSignInTests {
    // MARK: New identity, provider-verified address nobody uses

    @Test func aNewIdentityWithAFreeVerifiedAddressMakesAPasswordlessAccountAndSignsIn() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let (grant, created) = try fixture.socialSignIn(identity(name: "Ann Lee\nsecond line"), rememberMe: true)
        #expect(created)
        #expect(grant.session.email == "Ann@Example.com" && grant.session.rememberMe)
        let accountId = grant.session.accountId
        #expect(try fixture.passwordHash(accountId) == "", "no password")
        let address = try #require(try fixture.database.read { tx in try tx.row("SELECT isPrimary, verifiedAt FROM emailAddress") })
        #expect(address["isPrimary"] as Bool && address["verifiedAt"] as Date? == fixture.clock.now(), "the provider vouched for it")
        #expect(try fixture.services.profile.values(of: accountId).displayName == "Ann Lee", "one line from the provider")
        #expect(try fixture.linkedIdentities() == ["corp/sub-1→\(accountId)"])
        #expect(try fixture.audits(.signUp).map { $0["detail"] as String } == ["via corp"])
        #expect(try fixture.audits(.identityLinked).map { $0["detail"] as String } == ["corp"])
        #expect(try fixture.count("mailQueue") == 0, "no confirmation needed")
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.accountId == accountId)
    }

    @Test func aSignedUpAccountCannotSignInWithAnyPassword() throws {
        let fixture = try TestFixture()
        _ = try fixture.socialSignIn(identity())
        for password in ["", "correct horse"] {
            #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: password) }
        }
    }

    @Test func theTokensAreStoredSealedNeverInClear() throws {
        // Given a database file
        let folder = NSTemporaryDirectory() + "frontdoor-social-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/frontdoor.sqlite"
        let fixture = try TestFixture(databasePath: path)
        let secret = #"{"access_token":"AT-very-secret-0123456789","refresh_token":"RT-very-secret-9876543210"}"#
        // When an identity with tokens signs up
        let accountId = try fixture.socialSignIn(identity(tokens: secret)).grant.session.accountId
        // Then neither token is anywhere in the files, but they open again
        var bytes = Data()
        for file in [path, path + "-wal"] { bytes += (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }
        #expect(bytes.range(of: Data("Ann@Example.com".utf8)) != nil, "the rows are in the files read")
        #expect(bytes.range(of: Data("AT-very-secret".utf8)) == nil)
        #expect(bytes.range(of: Data("RT-very-secret".utf8)) == nil)
        let opened = try #require(try fixture.services.socialLinks.tokens(accountId: accountId, provider: "corp"))
        #expect(opened.tokens == Data(secret.utf8))
        #expect(opened.expiresAt == Date(timeIntervalSince1970: 1_800_003_600))
    }

    @Test func anInvalidAddressFromTheProviderCountsAsNone() throws {
        let fixture = try TestFixture()
        guard case .needsEmail = try fixture.social(identity(email: "not an address")) else { Issue.record("expected .needsEmail"); return }
        #expect(try fixture.count("account") == 0)
    }

    // MARK: Sign-up modes

    @Test func closedSignUpRefusesNewIdentitiesButNotLinkedOnes() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .closed))
        #expect(throws: AccountError.signUpClosed) { try fixture.social(identity()) }
        #expect(throws: AccountError.signUpClosed) { try fixture.social(identity("sub-2", email: nil)) }
        #expect(try [fixture.count("account"), fixture.count("socialPending"), fixture.count("session")] == [0, 0, 0])

        // An account the operator made, linked earlier, still signs in; an address it holds still leads to linking.
        let accountId = try fixture.services.administration.add(email: "bob@example.com", password: "correct horse", confirmed: true,
                                                                    client: ClientInfo())
        try fixture.database.write { tx in
            try tx.execute("INSERT INTO socialIdentity (accountId, provider, subject, createdAt) VALUES (?, 'corp', 'bob', 0)", [accountId])
        }
        #expect(try fixture.socialSignIn(identity("bob", email: nil)).grant.session.accountId == accountId)
        guard case .needsLink = try fixture.social(identity("bob-github", provider: "github", email: "BOB@example.com")) else {
            Issue.record("expected .needsLink"); return
        }
    }

    @Test func inviteModeNeedsAnInvitationForThatAddress() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite))
        let invitation = try fixture.services.invitations.create(email: "ann@example.com", client: ClientInfo())
        let other = try fixture.services.invitations.create(email: "bob@example.com", client: ClientInfo())
        // Without one, or with another address's, nothing happens and that invitation stays usable
        #expect(throws: AccountError.invitationRequired) { try fixture.social(identity()) }
        #expect(throws: AccountError.invitationRequired) { try fixture.social(identity(), invite: other.token) }
        #expect(try fixture.services.invitations.invitation(token: other.token) == "bob@example.com")
        #expect(try fixture.count("account") == 0)
        // With the right one, the account is made and the invitation used up
        let outcome = try fixture.social(identity(), invite: invitation.token)
        guard case .signedIn(_, created: true) = outcome else { Issue.record("expected a new account, got \(outcome)"); return }
        #expect(try fixture.services.invitations.invitation(token: invitation.token) == nil)
        #expect(try fixture.audits(.signUp).map { $0["detail"] as String } == ["via corp, invitation"])
    }

    @Test func inviteModeAsksForAnAddressOnlyWithAValidInvitation() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite))
        #expect(throws: AccountError.invitationRequired) { try fixture.social(identity(email: nil)) }
        let invitation = try fixture.services.invitations.create(email: "ann@example.com", client: ClientInfo())
        guard case .needsEmail = try fixture.social(identity(email: nil), invite: invitation.token) else { Issue.record("expected .needsEmail"); return }
    }

    @Test func openModeUsesUpAnInvitationForTheAddress() throws {
        let fixture = try TestFixture()
        let invitation = try fixture.services.invitations.create(email: "ann@example.com", client: ClientInfo())
        _ = try fixture.socialSignIn(identity(), invite: invitation.token)
        #expect(try fixture.services.invitations.invitation(token: invitation.token) == nil)
    }

    // MARK: Already linked

    @Test func aLinkedIdentitySignsInToItsAccountAndEndsThePreviousSession() throws {
        let fixture = try TestFixture()
        let first = try fixture.socialSignIn(identity(tokens: "old")).grant
        fixture.clock.advance(by: 60)
        let (grant, created) = try fixture.socialSignIn(identity(email: "ann@new.example", name: "Ann L.", tokens: "new"),
                                                        previousToken: first.token.encoded)
        #expect(!created && grant.session.accountId == first.session.accountId)
        #expect(grant.session.email == "Ann@Example.com", "the account's primary address, not the provider's")
        #expect(grant.token != first.token)
        #expect(try fixture.services.sessions.find(token: first.token.encoded) == nil)
        #expect(try fixture.audits(.signIn).map { $0["detail"] as String } == ["via corp"])
        let linked = try #require(try fixture.services.socialLinks.identities(accountId: grant.session.accountId).first)
        #expect(linked.email == "ann@new.example" && linked.displayName == "Ann L.")
        #expect(linked.lastUsedAt == fixture.clock.now())
        #expect(try fixture.services.socialLinks.tokens(accountId: grant.session.accountId, provider: "corp")?.tokens == Data("new".utf8))
        #expect(try fixture.count("account") == 1)
    }

    @Test func withoutNewTokensTheStoredOnesStay() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.socialSignIn(identity(tokens: "kept")).grant.session.accountId
        _ = try fixture.socialSignIn(identity())
        #expect(try fixture.services.socialLinks.tokens(accountId: accountId, provider: "corp")?.tokens == Data("kept".utf8))
    }

    @Test func theAccountsLockDoesNotStopAProviderSignIn() throws {
        // Given an account with a password and a linked identity, locked after failed password sign-ins
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 2))
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        try fixture.database.write { tx in
            try tx.execute("UPDATE emailAddress SET verifiedAt = 1")
            try tx.execute("INSERT INTO socialIdentity (accountId, provider, subject, createdAt) VALUES (?, 'corp', 'sub-1', 0)", [accountId])
        }
        for _ in 0..<2 { _ = try? fixture.signIn("ann@example.com", password: "wrong guess") }
        #expect(try fixture.services.lockout.lockedUntil(accountId: accountId) != nil)
        // Then the provider still signs the person in, and the lock still holds for passwords
        #expect(try fixture.socialSignIn(identity()).grant.session.accountId == accountId)
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com") }
    }

    @Test func anUnconfirmedAccountIsRefusedWhileConfirmationIsRequired() throws {
        // Given an account made from a provider identity without an address, its address not confirmed yet
        let fixture = try TestFixture(confirmationRequired: true)
        let token = try fixture.socialPending(identity(email: nil))
        _ = try fixture.services.social.submitEmail(pendingToken: token, binding: browser, email: "ann@example.com", client: ClientInfo(),
                                                    here: nil)
        // When the identity signs in again
        #expect(throws: AccountError.unconfirmed) { try fixture.social(identity(email: nil)) }
        #expect(try fixture.audits(.signInFailed).map { $0["detail"] as String } == ["via corp: address not confirmed"])
        #expect(try fixture.count("session") == 0)
    }

    // MARK: The address belongs to an account, or there is none

    @Test func anAddressAnAccountHoldsIsNeverLinkedSilently() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        let outcome = try fixture.social(identity(email: "ANN@example.COM"))
        guard case .needsLink(let token) = outcome else { Issue.record("expected .needsLink, got \(outcome)"); return }
        #expect(try fixture.linkedIdentities().isEmpty)
        #expect(try fixture.count("account") == 1 && fixture.count("session") == 1)
        let row = try #require(try fixture.database.read { tx in try tx.row("SELECT * FROM socialPending") })
        #expect(row["linkAccountId"] as Int64? == accountId)
        #expect(row["digest"] as Data == SecretToken(encoded: token)?.digest)
        #expect(row["expiresAt"] as Double == fixture.clock.now().timeIntervalSince1970 + 600)
    }

    @Test func noAddressOrAnUnverifiedOneAsksForAnAddress() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        for (subject, email) in [("a", nil), ("b", "ann@example.com"), ("c", "new@example.com")] as [(String, String?)] {
            let outcome = try fixture.social(identity(subject, email: email, verified: false))
            guard case .needsEmail = outcome else { Issue.record("expected .needsEmail for \(subject), got \(outcome)"); continue }
        }
        #expect(try fixture.count("account") == 1 && fixture.count("socialPending") == 3)
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM socialPending WHERE linkAccountId IS NOT NULL") } == 0)
    }

    @Test func anIdentityFromAnotherProviderThanTheFlowIsRefused() throws {
        let fixture = try TestFixture()
        let start = try fixture.services.socialFlows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: browser)
        let flow = try fixture.services.socialFlows.finish(state: start.state, provider: "corp", binding: browser)
        #expect(refusal {
            _ = try fixture.services.social.complete(identity(provider: "github"), flow: flow, binding: browser, session: nil,
                                                     client: ClientInfo(), here: nil)
        } == "social_state_invalid")
    }

    @Test func concurrentCallbacksForOneNewIdentityMakeOneAccount() async throws {
        let folder = NSTemporaryDirectory() + "frontdoor-social-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixture = try TestFixture(databasePath: folder + "/db.sqlite")
        let flows = try (0..<6).map { _ in
            let start = try fixture.services.socialFlows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: browser)
            return try fixture.services.socialFlows.finish(state: start.state, provider: "corp", binding: browser)
        }
        let social = fixture.services.social
        let results = await withTaskGroup(of: String.self) { group in
            for flow in flows {
                group.addTask {
                    switch try? social.complete(identity(), flow: flow, binding: browser, session: nil, client: ClientInfo(), here: nil) {
                    case .signedIn(_, let created): created ? "created" : "signed in"
                    default: "other"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 == "created" }.count == 1)
        #expect(results.filter { $0 == "signed in" }.count == 5)
        #expect(try [fixture.count("account"), fixture.count("socialIdentity")] == [1, 1])
    }
}
