import AccountRules
import Foundation
import Testing
@testable import AccountCore

/// A pending identity's next step (SocialSignIn+Pending.swift).
struct SocialSignInPendingTests {
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.7")

    func submit(_ fixture: TestFixture, _ token: String, _ email: String, binding: [UInt8] = browser,
                previousToken: String? = nil) throws -> SignUpOutcome {
        try fixture.services.social.submitEmail(pendingToken: token, binding: binding, email: email, client: client, here: previousToken.map { BrowserTokens(active: $0) })
    }

    func link(_ fixture: TestFixture, _ token: String, _ password: String, binding: [UInt8] = browser,
              previousToken: String? = nil) throws -> SessionGrant {
        try fixture.services.social.linkWithPassword(pendingToken: token, binding: binding, password: password, client: client,
                                                     here: previousToken.map { BrowserTokens(active: $0) })
    }

    // MARK: Looking at a pending identity

    @Test func aPendingIdentityShowsWhatTheNextPageNeeds() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.socialSignIn(identity("ann-corp")).grant.session.accountId
        let token = try fixture.socialPending(identity("ann-gh", provider: "github", name: "Ann"))
        let pending = try fixture.services.social.pending(token: token, binding: browser)
        #expect(pending == PendingIdentity(provider: "github", email: "Ann@Example.com", displayName: "Ann", linkProviders: ["corp"],
                                           linkHasPassword: false, returnTo: "/back", rememberMe: false, accountId: accountId,
                                           accountAddress: "Ann@Example.com"))
        try fixture.database.write { tx in try tx.execute("UPDATE account SET passwordHash = 'x' WHERE id = ?", [accountId]) }
        #expect(try fixture.services.social.pending(token: token, binding: browser).linkHasPassword)

        let asking = try fixture.socialPending(identity("new", email: nil))
        #expect(try fixture.services.social.pending(token: asking, binding: browser).linkProviders == [])
    }

    @Test func aPendingIdentityWorksOnlyInItsBrowserForTenMinutes() throws {
        let fixture = try TestFixture()
        let token = try fixture.socialPending(identity(email: nil))
        #expect(refusal { _ = try fixture.services.social.pending(token: token, binding: otherBrowser) } == "social_pending_invalid")
        #expect(refusal { _ = try fixture.services.social.pending(token: "garbage", binding: browser) } == "social_pending_invalid")
        #expect(refusal { _ = try submit(fixture, token, "ann@example.com", binding: otherBrowser) } == "social_pending_invalid")
        fixture.clock.advance(by: 600)
        #expect(refusal { _ = try fixture.services.social.pending(token: token, binding: browser) } == "social_pending_invalid")
        #expect(refusal { _ = try submit(fixture, token, "ann@example.com") } == "social_pending_invalid")
        #expect(try fixture.count("account") == 0)
    }

    // MARK: Giving an address

    @Test func aFreeAddressMakesTheAccountUnverifiedAndMailsAConfirmation() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let token = try fixture.socialPending(identity(email: "ann@unverified.example", verified: false, tokens: "t"))
        guard case .confirmationSent = try submit(fixture, token, "  Ann@Example.com ") else { Issue.record("expected .confirmationSent"); return }
        let address = try #require(try fixture.database.read { tx in try tx.row("SELECT accountId, address, isPrimary, verifiedAt FROM emailAddress") })
        let accountId: Int64 = address["accountId"]
        #expect(address["address"] as String == "Ann@Example.com" && address["isPrimary"] as Bool && address["verifiedAt"] as Date? == nil)
        #expect(try fixture.passwordHash(accountId) == "")
        #expect(try fixture.linkedIdentities() == ["corp/sub-1→\(accountId)"])
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["confirmation"])
        #expect(try fixture.count("session") == 0)
        #expect(try fixture.audits(.signUp).map { $0["detail"] as String } == ["via corp"])
        // Used up
        #expect(refusal { _ = try submit(fixture, token, "other@example.com") } == "social_pending_invalid")

        // Once confirmed in the browser that signed in with the provider, the provider signs the person in
        let confirmation = try #require(try fixture.database.read { tx in try tx.value(String.self, "SELECT message FROM mailQueue") })
        let link = String(try #require(confirmation.firstMatch(of: /confirmation\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        _ = try fixture.services.confirmation.confirmAddress(token: link, binding: browser)
        #expect(try fixture.socialSignIn(identity(email: nil)).grant.session.accountId == accountId)
    }

    @Test func withoutRequiredConfirmationAFreeAddressSignsIn() throws {
        let fixture = try TestFixture()
        let earlier = try fixture.signUp("someone@example.com")
        let token = try fixture.socialPending(identity(email: nil))
        guard case .signedIn(let grant) = try submit(fixture, token, "ann@example.com", previousToken: earlier.token.encoded) else {
            Issue.record("expected .signedIn"); return
        }
        #expect(grant.session.email == "ann@example.com")
        #expect(try fixture.services.sessions.find(token: earlier.token.encoded) == nil)
    }

    @Test func anAddressWithAnAccountLooksTheSameCreatesNothingAndMailsItsOwner() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "Ann@Example.com"), client: client)
        let token = try fixture.socialPending(identity(email: nil))
        guard case .confirmationSent = try submit(fixture, token, "ann@EXAMPLE.com") else { Issue.record("expected .confirmationSent"); return }
        #expect(try [fixture.count("account"), fixture.count("socialIdentity")] == [1, 0])
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["confirmation", "sign_up_attempt"])
        #expect(refusal { _ = try fixture.services.social.pending(token: token, binding: browser) } == "social_pending_invalid")
        // A second try within the throttle window mails nothing more
        let again = try fixture.socialPending(identity(email: nil))
        _ = try submit(fixture, again, "ann@example.com")
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["confirmation", "sign_up_attempt"])
    }

    @Test func aBadAddressIsAFieldErrorAndThePendingIdentityStays() throws {
        let fixture = try TestFixture()
        let token = try fixture.socialPending(identity(email: nil))
        for bad in ["", "ann@", "not an address"] {
            let error = #expect(throws: AccountError.self) { try submit(fixture, token, bad) }
            guard case .invalid(let errors) = error else { Issue.record("expected .invalid"); continue }
            #expect(errors.fieldNames == ["email"])
        }
        _ = try submit(fixture, token, "ann@example.com")
        #expect(try fixture.count("account") == 1)
    }

    @Test func aPendingIdentityWaitingForALinkTakesNoAddress() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        let token = try fixture.socialPending(identity())
        #expect(refusal { _ = try submit(fixture, token, "other@example.com") } == "social_pending_invalid")
    }

    @Test func inInviteModeTheInvitedAddressSignsInAndAnotherIsNotInvited() throws {
        let fixture = try TestFixture(confirmationRequired: true, signUp: SignUpPolicy(mode: .invite))
        let invitation = try fixture.services.invitations.create(email: "ann@example.com", client: client)
        let token = try fixture.socialPending(identity(email: nil), invite: invitation.token)
        let error = #expect(throws: AccountError.self) { try submit(fixture, token, "bob@example.com") }
        guard case .invalid(let errors) = error else { Issue.record("expected .invalid"); return }
        #expect(errors.keys(for: "email") == ["not_invited"])
        guard case .signedIn(let grant) = try submit(fixture, token, "ann@example.com") else { Issue.record("expected .signedIn"); return }
        #expect(try fixture.database.read { tx in
            try tx.value(Bool.self, "SELECT verifiedAt IS NOT NULL AS verified FROM emailAddress WHERE accountId = ?", [grant.session.accountId])
        } == true, "the operator vouched for it")
        #expect(try fixture.services.invitations.invitation(token: invitation.token) == nil)
    }

    // MARK: Linking with the account's password

    /// Ann's account with a password; a corp identity with her address is pending.
    func annWithPending(_ fixture: TestFixture, confirmed: Bool = true) throws -> (accountId: Int64, token: String) {
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        if confirmed { try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") } }
        return (accountId, try fixture.socialPending(identity()))
    }

    @Test func theRightPasswordLinksTheIdentityAndSignsIn() throws {
        let fixture = try TestFixture()
        let (accountId, token) = try annWithPending(fixture)
        let earlier = try fixture.signIn("ann@example.com")
        let grant = try link(fixture, token, "correct horse", previousToken: earlier.token.encoded)
        #expect(grant.session.accountId == accountId && grant.session.email == "ann@example.com")
        #expect(try fixture.services.sessions.find(token: earlier.token.encoded) == nil)
        #expect(try fixture.linkedIdentities() == ["corp/sub-1→\(accountId)"])
        #expect(try fixture.audits(.signIn).last?["detail"] as String? == "password, linking corp")
        #expect(try fixture.audits(.identityLinked).count == 1)
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["identity_linked"])
        #expect(refusal { _ = try link(fixture, token, "correct horse") } == "social_pending_invalid")
        // From now on the provider signs in directly
        #expect(try fixture.socialSignIn(identity()).grant.session.accountId == accountId)
    }

    @Test func aWrongPasswordCountsTowardsTheLock() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 3))
        let (accountId, token) = try annWithPending(fixture)
        for _ in 0..<3 { #expect(throws: AccountError.invalidCredentials) { try link(fixture, token, "wrong guess") } }
        #expect(try fixture.services.lockout.lockedUntil(accountId: accountId) != nil)
        // Locked: even the right password is refused
        #expect(throws: AccountError.invalidCredentials) { try link(fixture, token, "correct horse") }
        #expect(try fixture.linkedIdentities().isEmpty)
        #expect(try fixture.audits(.signInFailed).map { $0["detail"] as String }.prefix(3) == ArraySlice(repeating: "linking: wrong password", count: 3))
    }

    @Test func anAccountWithoutAPasswordCannotBeLinkedByPassword() throws {
        let fixture = try TestFixture()
        _ = try fixture.socialSignIn(identity("ann-corp"))
        let token = try fixture.socialPending(identity("ann-gh", provider: "github"))
        for password in ["", "anything"] {
            #expect(throws: AccountError.invalidCredentials) { try link(fixture, token, password) }
        }
        #expect(try fixture.audits(.signInFailed).map { $0["detail"] as String } == Array(repeating: "linking: account has no password", count: 2))
        #expect(try fixture.count("signInFailure") == 2)
    }

    @Test func anUnconfirmedAccountIsRefusedAfterTheRightPassword() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: client)
        let token = try fixture.socialPending(identity())
        #expect(throws: AccountError.unconfirmed) { try link(fixture, token, "correct horse") }
        #expect(try fixture.linkedIdentities().isEmpty)
    }

    @Test func linkingByPasswordWorksOnlyInTheSameBrowser() throws {
        let fixture = try TestFixture()
        let (_, token) = try annWithPending(fixture)
        #expect(refusal { _ = try link(fixture, token, "correct horse", binding: otherBrowser) } == "social_pending_invalid")
        let asking = try fixture.socialPending(identity("other", email: nil))
        #expect(refusal { _ = try link(fixture, asking, "correct horse") } == "social_pending_invalid", "not waiting for a link")
    }
}
