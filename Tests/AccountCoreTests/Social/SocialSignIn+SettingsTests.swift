import Foundation
import Testing
@testable import AccountCore

/// Purposes link, reauthenticate and linkPending (SocialSignIn+Settings.swift).
struct SocialSignInSettingsTests {
    // MARK: Link

    @Test func linkingAddsTheIdentityToTheSignedInAccountAndTellsItsOwner() throws {
        let fixture = try TestFixture()
        let session = try fixture.signUp("ann@example.com").session
        let outcome = try fixture.social(identity(email: "ann.work@corp.example"), purpose: .link, session: session)
        guard case .linked = outcome else { Issue.record("expected .linked, got \(outcome)"); return }
        #expect(try fixture.linkedIdentities() == ["corp/sub-1→\(session.accountId)"])
        #expect(try fixture.audits(.identityLinked).map { $0["detail"] as String } == ["corp"])
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["identity_linked"])
        #expect(try fixture.count("account") == 1, "the provider's other address makes no account")

        // Linking it again changes nothing and mails nothing
        guard case .linked = try fixture.social(identity(), purpose: .link, session: session) else { Issue.record("expected .linked"); return }
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["identity_linked"])
        #expect(try fixture.audits(.identityLinked).count == 1)
    }

    @Test func anIdentityOfAnotherAccountIsRefused() throws {
        let fixture = try TestFixture()
        _ = try fixture.socialSignIn(identity(email: "bob@example.com"))
        let ann = try fixture.signUp("ann@example.com").session
        #expect(refusal { _ = try fixture.social(identity(email: "bob@example.com"), purpose: .link, session: ann) } == "social_identity_taken")
        #expect(try fixture.linkedIdentities().count == 1)
    }

    @Test func aSecondIdentityOfOneProviderIsRefused() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session
        _ = try fixture.social(identity("first"), purpose: .link, session: ann)
        #expect(refusal { _ = try fixture.social(identity("second"), purpose: .link, session: ann) } == "social_already_linked")
        #expect(try fixture.linkedIdentities() == ["corp/first→\(ann.accountId)"])
    }

    @Test func aFlowBegunForAnotherAccountOrWithoutASessionIsRefused() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com").session
        let bob = try fixture.signUp("bob@example.com").session
        #expect(refusal { _ = try fixture.social(identity(), purpose: .link, session: bob, flowAccount: ann.accountId) } == "social_wrong_account")
        #expect(refusal { _ = try fixture.social(identity(), purpose: .link, session: nil, flowAccount: ann.accountId) } == "social_wrong_account")
        #expect(try fixture.linkedIdentities().isEmpty)
    }

    // MARK: Re-authenticate

    @Test func reauthenticatingWithTheLinkedProviderMakesTheSessionRecent() throws {
        let fixture = try TestFixture()
        let session = try fixture.socialSignIn(identity()).grant.session
        fixture.clock.advance(by: 11 * 60)
        #expect(try !fixture.services.reauthentication.isRecent(session.digest))
        guard case .reauthenticated = try fixture.social(identity(), purpose: .reauthenticate, session: session) else {
            Issue.record("expected .reauthenticated"); return
        }
        #expect(try fixture.services.reauthentication.isRecent(session.digest))
        #expect(try fixture.audits(.reauthenticated).map { $0["detail"] as String } == ["via corp"])
    }

    @Test func reauthenticatingWithAnIdentityNotLinkedToTheAccountIsRefused() throws {
        let fixture = try TestFixture()
        _ = try fixture.socialSignIn(identity("bob", email: "bob@example.com"))
        let ann = try fixture.socialSignIn(identity("ann", email: "ann@example.com")).grant.session
        fixture.clock.advance(by: 11 * 60)
        for other in [identity("bob", email: "bob@example.com"), identity("nobody", email: nil), identity("ann", provider: "github")] {
            #expect(refusal { _ = try fixture.social(other, purpose: .reauthenticate, session: ann) } == "social_wrong_account")
        }
        #expect(try !fixture.services.reauthentication.isRecent(ann.digest))
        #expect(try fixture.audits(.reauthenticated).isEmpty)
    }

    // MARK: Link a pending identity through a provider already linked

    /// Ann's account, made through corp; then a github identity with her address is pending.
    func annWithPendingGithub(_ fixture: TestFixture, binding: [UInt8] = browser) throws -> (accountId: Int64, pending: String) {
        let accountId = try fixture.socialSignIn(identity("ann-corp")).grant.session.accountId
        let pending = try fixture.socialPending(identity("ann-gh", provider: "github", tokens: "gh-tokens"), binding: binding)
        return (accountId, pending)
    }

    @Test func signingInWithALinkedProviderLinksThePendingIdentity() throws {
        let fixture = try TestFixture()
        let (accountId, pending) = try annWithPendingGithub(fixture)
        let outcome = try fixture.social(identity("ann-corp"), purpose: .linkPending, pendingToken: pending)
        guard case .signedIn(let grant, created: false) = outcome else { Issue.record("expected .signedIn, got \(outcome)"); return }
        #expect(grant.session.accountId == accountId)
        #expect(try Set(fixture.linkedIdentities()) == ["corp/ann-corp→\(accountId)", "github/ann-gh→\(accountId)"])
        #expect(try fixture.services.socialLinks.tokens(accountId: accountId, provider: "github")?.tokens == Data("gh-tokens".utf8),
                "the pending row's sealed tokens moved with it")
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["identity_linked"])
        // The pending identity is used up
        #expect(refusal { _ = try fixture.social(identity("ann-corp"), purpose: .linkPending, pendingToken: pending) } == "social_pending_invalid")
    }

    @Test func thePendingIdentityNeedsAProviderOfThatAccount() throws {
        let fixture = try TestFixture()
        let (_, pending) = try annWithPendingGithub(fixture)
        _ = try fixture.socialSignIn(identity("mallory", email: "mallory@example.com"))
        #expect(refusal { _ = try fixture.social(identity("mallory", email: "mallory@example.com"), purpose: .linkPending, pendingToken: pending) }
                == "social_wrong_account")
        #expect(refusal { _ = try fixture.social(identity("unknown", email: nil), purpose: .linkPending, pendingToken: pending) }
                == "social_wrong_account")
        #expect(try fixture.linkedIdentities().count == 2, "ann-corp and mallory only")
    }

    @Test func aPendingIdentityOfAnotherBrowserOrPastItsTimeIsRefused() throws {
        let fixture = try TestFixture()
        let (_, pending) = try annWithPendingGithub(fixture, binding: otherBrowser)
        #expect(refusal { _ = try fixture.social(identity("ann-corp"), purpose: .linkPending, pendingToken: pending) } == "social_pending_invalid")
        let (_, mine) = try annWithPendingGithub(fixture)
        fixture.clock.advance(by: 601)
        #expect(refusal { _ = try fixture.social(identity("ann-corp"), purpose: .linkPending, pendingToken: mine) } == "social_pending_invalid")
        #expect(try fixture.linkedIdentities().count == 1)
    }

    @Test func aFlowCarryingThePendingTokenItselfWorksToo() throws {
        let fixture = try TestFixture()
        let (accountId, pending) = try annWithPendingGithub(fixture)
        let flow = SocialFlow(provider: "corp", purpose: .linkPending, pendingToken: pending)
        let outcome = try fixture.services.social.complete(identity("ann-corp"), flow: flow, binding: browser, session: nil,
                                                          client: ClientInfo(), here: nil)
        guard case .signedIn(let grant, _) = outcome else { Issue.record("expected .signedIn"); return }
        #expect(grant.session.accountId == accountId)
    }
}
