import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

/// Sign-in with a provider token from a native app: the header's table (SocialSignIn+Native.swift).
struct SocialNativeSignInTests {
    let app = ClientInfo(userAgent: "FrontdoorKit", remoteAddress: "198.51.100.7")

    func google(_ subject: String = "g-1", email: String? = "Ann@Example.com", verified: Bool = true) -> ExternalIdentity {
        identity(subject, provider: "google", email: email, verified: verified, tokens: #"{"access_token":"ya29.native"}"#)
    }

    /// Counts of the rows a refusal must not leave.
    func rows(_ fixture: TestFixture) throws -> [Int] {
        try ["account", "emailAddress", "socialIdentity", "socialPending", "session"].map { try fixture.count($0) }
    }

    // MARK: New identity, provider-verified address nobody uses

    @Test func aNewIdentityWithAFreeVerifiedAddressMakesAnAccountAndAnAPIToken() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let (grant, created) = try fixture.services.social.signInWithProviderToken(google(), client: app)
        #expect(created)
        let accountId = grant.session.accountId
        #expect(grant.session.kind == .api && grant.session.email == "Ann@Example.com")
        #expect(try fixture.sessionRow(grant)?["kind"] as String? == "api")
        #expect(try fixture.passwordHash(accountId) == "", "no password")
        let address = try #require(try fixture.database.read { tx in try tx.row("SELECT isPrimary, verifiedAt FROM emailAddress") })
        #expect(address["isPrimary"] as Bool && address["verifiedAt"] as Date? == fixture.clock.now())
        #expect(try fixture.linkedIdentities() == ["google/g-1→\(accountId)"])
        let tokens = try fixture.services.socialLinks.tokens(accountId: accountId, provider: "google")?.tokens
        #expect(tokens == Data(#"{"access_token":"ya29.native"}"#.utf8), "sealed, and opened again")
        #expect(try fixture.audits(.signUp).map { $0["detail"] as String } == ["api via google"])
        #expect(try fixture.audits(.identityLinked).map { $0["detail"] as String } == ["google"])
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded)?.accountId == accountId)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) == nil, "not a browser session")
        #expect(try fixture.count("mailQueue") == 0)
    }

    // MARK: Recency

    @Test func aBareProviderTokenIsNeverARecentSignInAndABoundCodeIs() throws {
        let fixture = try TestFixture()
        let bare = try fixture.services.social.signInWithProviderToken(google(), client: app).grant
        let linked = try fixture.services.social.signInWithProviderToken(google(), client: app).grant
        let bound = try fixture.services.social.signInWithProviderToken(google(), client: app, recentSignIn: true).grant
        for grant in [bare, linked] {
            #expect(try fixture.sessionRow(grant)?["authenticatedAt"] as Double? == 0, "0: the password was never entered")
            #expect(try !fixture.services.reauthentication.isRecent(grant.token.digest))
            #expect(throws: AccountError.reauthenticationRequired) {
                try fixture.services.reauthentication.confirmOrRequireRecent(session: grant.token.digest, password: "", client: app)
            }
        }
        #expect(try fixture.services.reauthentication.isRecent(bound.token.digest))
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: bare.token.encoded) != nil, "the token still works")
    }

    // MARK: Already linked

    @Test func aLinkedIdentitySignsInToItsAccountWithANewToken() throws {
        let fixture = try TestFixture()
        let first = try fixture.services.social.signInWithProviderToken(google(), client: app).grant
        let (grant, created) = try fixture.services.social.signInWithProviderToken(google(email: "changed@example.com"), client: app)
        #expect(!created && grant.session.accountId == first.session.accountId && grant.session.kind == .api)
        #expect(grant.token != first.token)
        #expect(try fixture.audits(.signIn).map { $0["detail"] as String } == ["api via google"])
        #expect(try fixture.count("account") == 1 && fixture.count("session") == 2)
        #expect(try fixture.database.read { tx in try tx.value(String.self, "SELECT email FROM socialIdentity") } == "changed@example.com",
                "what the provider says now is kept")
    }

    @Test func aLinkedAccountWhoseAddressWaitsForConfirmationIsUnconfirmed() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let accountId = try fixture.services.social.signInWithProviderToken(google(), client: app).grant.session.accountId
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = NULL") }
        let sessions = try fixture.count("session")
        #expect(throws: AccountError.unconfirmed) { try fixture.services.social.signInWithProviderToken(google(), client: app) }
        #expect(try fixture.count("session") == sessions)
        #expect(try fixture.audits(.signInFailed).map { $0["accountId"] as Int64? } == [accountId], "the failure is recorded")
    }

    @Test func aLinkedAccountStillSignsInWhenSignUpIsClosed() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .closed))
        let accountId = try fixture.services.administration.add(email: "bob@example.com", password: "correct horse", confirmed: true,
                                                                    client: ClientInfo())
        try fixture.database.write { tx in
            try tx.execute("INSERT INTO socialIdentity (accountId, provider, subject, createdAt) VALUES (?, 'google', 'bob', 0)", [accountId])
        }
        #expect(try fixture.services.social.signInWithProviderToken(google("bob", email: nil), client: app).grant.session.accountId == accountId)
    }

    // MARK: Refusals, without rows

    @Test func anAddressHeldByAnAccountIsNeverLinkedSilently() throws {
        let fixture = try TestFixture()
        _ = try fixture.signUp("ann@example.com")
        let before = try rows(fixture)
        #expect(refusal { _ = try fixture.services.social.signInWithProviderToken(google(email: "ANN@example.com"), client: app) }
                == "api_social_address_held")
        #expect(try rows(fixture) == before)
        #expect(try fixture.linkedIdentities().isEmpty)
    }

    @Test func anUnverifiedPrimaryAddressIsHeldButAnUnconfirmedAddedOneGoesToTheProvidersOwner() throws {
        let fixture = try TestFixture()
        let bob = try fixture.signUp("bob@example.com").session.accountId
        #expect(refusal { _ = try fixture.services.social.signInWithProviderToken(google(email: "bob@example.com"), client: app) }
                == "api_social_address_held", "an account's own address, even unconfirmed")
        // An address bob merely added (and never confirmed) is not his: the provider proved it to its owner
        try fixture.services.addresses.add("ann@example.com", to: bob, client: ClientInfo())
        let (grant, created) = try fixture.services.social.signInWithProviderToken(google(), client: app)
        #expect(created && grant.session.accountId != bob)
        #expect(try fixture.services.addresses.all(of: bob).map(\.address) == ["bob@example.com"])
    }

    @Test func noAddressOrAnUnverifiedOneIsRefused() throws {
        let fixture = try TestFixture()
        for identity in [google(email: nil), google(verified: false), google(email: "not an address")] {
            #expect(refusal { _ = try fixture.services.social.signInWithProviderToken(identity, client: app) } == "api_social_no_email")
        }
        #expect(try rows(fixture) == [0, 0, 0, 0, 0])
    }

    @Test func closedSignUpRefusesNewIdentitiesWhateverTheyCarry() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .closed))
        #expect(throws: AccountError.signUpClosed) { try fixture.services.social.signInWithProviderToken(google(), client: app) }
        #expect(throws: AccountError.signUpClosed) { try fixture.services.social.signInWithProviderToken(google(email: nil), client: app) }
        #expect(try rows(fixture) == [0, 0, 0, 0, 0])
    }

    @Test func inviteModeRefusesNewIdentitiesForNoInvitationCanCome() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite))
        #expect(throws: AccountError.invitationRequired) { try fixture.services.social.signInWithProviderToken(google(), client: app) }
        #expect(try rows(fixture) == [0, 0, 0, 0, 0])
    }

    @Test func anIdentityWithoutASubjectIsRefused() throws {
        let fixture = try TestFixture()
        #expect(refusal { _ = try fixture.services.social.signInWithProviderToken(google(""), client: app) } == "social_state_invalid")
        #expect(try rows(fixture) == [0, 0, 0, 0, 0])
    }

    @Test func aFailureAfterTheAccountLeavesNoHalfAccount() throws {
        // Given a trigger that fails the last step (the API token), after the account and the link were written
        let fixture = try TestFixture()
        // (SQLite's trigger syntax: a PostgreSQL run of this test needs its own failing trigger.)
        try fixture.database.write { tx in
            try tx.installTrigger("boom", "BEFORE", "INSERT", on: "session")
        }
        #expect(throws: StorageError.self) { try fixture.services.social.signInWithProviderToken(google(), client: app) }
        #expect(try rows(fixture) == [0, 0, 0, 0, 0])
        #expect(try fixture.count("audit") == 0)
    }
}
