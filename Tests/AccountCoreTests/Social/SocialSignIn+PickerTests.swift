import AccountRules
import Foundation
import Testing
@testable import AccountCore

/// Several candidate accounts for a new identity: the picker (SocialSignIn+Picker.swift).
struct SocialSignInPickerTests {
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.7")

    /// A GitHub identity vouching for `main` and `others`.
    func github(_ subject: String = "gh-1", main: String = "ann@work.example", others: [String]) -> ExternalIdentity {
        var found = identity(subject, provider: "github", email: main)
        found.otherVerifiedEmails = others
        return found
    }

    func picked(_ outcome: SocialOutcome) throws -> [String] {
        guard case .needsPick(let tokens) = outcome else { throw FixtureError("expected .needsPick, got \(outcome)") }
        return tokens
    }

    func link(_ fixture: TestFixture, _ token: String) throws -> SessionGrant {
        try fixture.services.social.linkWithPassword(pendingToken: token, binding: browser, password: "correct horse", client: client,
                                                     here: nil)
    }

    @Test func addressesHeldByTwoAccountsOfferBothAndLinkOnlyTheChosenOne() throws {
        let fixture = try TestFixture()
        let work = try fixture.signUp("ann@work.example").session.accountId
        let home = try fixture.signUp("ann@home.example").session.accountId
        // Given the provider vouches for both addresses (and a free one, and the first again)
        let tokens = try picked(fixture.social(github(others: ["Ann@Home.example", "free@x.example", "ANN@work.example", "not an address"])))
        #expect(tokens.count == 2)
        #expect(try fixture.linkedIdentities().isEmpty && fixture.count("account") == 2, "nothing linked or made before a choice")

        let choices = try fixture.services.social.pickChoices(tokens: tokens, binding: browser)
        #expect(choices.map(\.pending.accountId) == [work, home])
        #expect(choices.map(\.pending.accountAddress) == ["ann@work.example", "Ann@Home.example"])
        #expect(try fixture.services.social.pickChoices(tokens: tokens, binding: otherBrowser).isEmpty)

        // When the person chooses the second and proves it with its password
        try fixture.services.social.choosePending(tokens[1], among: tokens, binding: browser)
        #expect(refusal { _ = try link(fixture, tokens[0]) } == "social_pending_invalid", "the other choice is used up")
        #expect(try link(fixture, tokens[1]).session.accountId == home)
        // Then the identity is linked to that account only
        #expect(try fixture.linkedIdentities() == ["github/gh-1→\(home)"])
        #expect(try fixture.database.read { tx in try tx.value(String.self, "SELECT email FROM socialIdentity") } == "Ann@Home.example")
        #expect(refusal { try fixture.services.social.choosePending(tokens[0], among: tokens, binding: browser) } == "social_pending_invalid")
    }

    @Test func choosingOnlyAmongItsOwnTokens() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@work.example")
        try fixture.signUp("ann@home.example")
        let tokens = try picked(fixture.social(github(others: ["ann@home.example"])))
        #expect(refusal { try fixture.services.social.choosePending("garbage", among: tokens, binding: browser) } == "social_pending_invalid")
        #expect(refusal { try fixture.services.social.choosePending(tokens[0], among: tokens, binding: otherBrowser) } == "social_pending_invalid")
        #expect(try fixture.services.social.pickChoices(tokens: tokens, binding: browser).count == 2, "a refused choice uses nothing up")
    }

    @Test func withoutAChoiceTheUniqueKeyStillLinksOneAccountOnly() throws {
        let fixture = try TestFixture()
        let work = try fixture.signUp("ann@work.example").session.accountId
        try fixture.signUp("ann@home.example")
        let tokens = try picked(fixture.social(github(others: ["ann@home.example"])))
        #expect(try link(fixture, tokens[0]).session.accountId == work)
        #expect(refusal { _ = try link(fixture, tokens[1]) } == "social_identity_taken")
        #expect(try fixture.linkedIdentities() == ["github/gh-1→\(work)"])
    }

    @Test func anAddressAnotherAccountAddedWithoutConfirmingItIsReleasedToTheProvidersVerifiedOwner() throws {
        // Given account A added victim@x.example and never confirmed it (anyone may type any address)
        let fixture = try TestFixture()
        let squatter = try fixture.signUp("squatter@example.com").session.accountId
        _ = try fixture.services.addresses.add("Victim@X.example", to: squatter, client: client)
        // When the address's owner signs in with a provider that verified it
        let outcome = try fixture.social(identity("victim-1", email: "victim@x.example"))
        // Then a new account is made for them, holding the address verified; A no longer holds it
        guard case .signedIn(let grant, created: true) = outcome else { Issue.record("expected a new account, got \(outcome)"); return }
        #expect(grant.session.accountId != squatter && grant.session.email == "victim@x.example")
        #expect(try fixture.services.addresses.all(of: squatter).map(\.address) == ["squatter@example.com"])
        #expect(try fixture.linkedIdentities() == ["corp/victim-1→\(grant.session.accountId)"])
        #expect(try fixture.audits(.emailRemoved).map { $0["accountId"] as Int64 } == [squatter])
        // A verified added address is still the account's own: the link step, as before
        let owner = try fixture.signUp("owner@example.com").session.accountId
        _ = try fixture.services.addresses.add("owned@x.example", to: owner, client: client)
        _ = try fixture.services.confirmation.confirm(token: try verificationToken(fixture, to: "owned@x.example"))
        guard case .needsLink = try fixture.social(identity("owner-1", email: "owned@x.example")) else {
            Issue.record("a verified address is a candidate"); return
        }
    }

    @Test func anUnverifiedAddedAddressIsNoCandidateAmongTheProvidersOtherAddresses() throws {
        let fixture = try TestFixture()
        let squatter = try fixture.signUp("squatter@example.com").session.accountId
        _ = try fixture.services.addresses.add("ann@home.example", to: squatter, client: client)
        let outcome = try fixture.social(github(main: "new@work.example", others: ["ann@home.example"]))
        guard case .signedIn(_, created: true) = outcome else { Issue.record("expected sign-up, got \(outcome)"); return }
        #expect(try fixture.services.addresses.all(of: squatter).count == 2, "an address the provider did not main-vouch stays put")
    }

    @Test func oneCandidateIsTheLinkStep() throws {
        let fixture = try TestFixture()
        let home = try fixture.signUp("ann@home.example").session.accountId
        // The main address is free, another verified one has an account: that account is asked, never a new one made
        let outcome = try fixture.social(github(main: "new@work.example", others: ["ann@home.example"]))
        guard case .needsLink(let token) = outcome else { Issue.record("expected .needsLink, got \(outcome)"); return }
        let pending = try fixture.services.social.pending(token: token, binding: browser)
        #expect(pending.accountId == home && pending.accountAddress == "ann@home.example" && pending.email == "ann@home.example")
        #expect(try fixture.count("account") == 1)
        // No address held: sign-up as before, the others ignored
        guard case .signedIn(_, created: true) = try fixture.social(github("gh-2", main: "fresh@work.example", others: ["free@home.example"])) else {
            Issue.record("expected a new account"); return
        }
    }

    @Test func accountsSignedInHereJoinWhenTheAddressHasAnAccount() throws {
        let fixture = try TestFixture()
        let work = try fixture.signUp("ann@work.example").session.accountId
        let here = try fixture.signUp("ann@browser.example").session.accountId
        let hasGitHub = try fixture.socialSignIn(identity("gh-other", provider: "github", email: "other@github.example")).grant.session.accountId
        let tokens = try picked(fixture.social(github(others: []), browserAccounts: [here, work, hasGitHub]))
        let choices = try fixture.services.social.pickChoices(tokens: tokens, binding: browser)
        #expect(choices.map(\.pending.accountId) == [work, here], "an account with a GitHub identity already is no candidate")
        #expect(choices.map(\.pending.accountAddress) == ["ann@work.example", "ann@browser.example"])

        try fixture.services.social.choosePending(tokens[1], among: tokens, binding: browser)
        #expect(throws: AccountError.invalidCredentials) {
            try fixture.services.social.linkWithPassword(pendingToken: tokens[1], binding: browser, password: "wrong", client: client,
                                                         here: nil)
        }
        let failed = try fixture.audits(.signInFailed).last
        #expect(failed?["email"] as String? == "ann@browser.example", "the audit names the chosen account's own address")
        #expect(try link(fixture, tokens[1]).session.accountId == here)
        #expect(try fixture.linkedIdentities().contains("github/gh-1→\(here)"))

        // With no address held, the browser's accounts change nothing: a new identity signs up
        guard case .signedIn(_, created: true) = try fixture.social(github("gh-3", main: "new@x.example", others: []),
                                                                    browserAccounts: [here]) else {
            Issue.record("expected a new account"); return
        }
    }

    @Test func theChosenAccountIsProvenThroughAProviderAlreadyLinkedToIt() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@work.example")
        let home = try fixture.socialSignIn(identity("corp-home", email: "ann@home.example")).grant.session.accountId
        let tokens = try picked(fixture.social(github(others: ["ann@home.example"])))
        #expect(try fixture.services.social.pickChoices(tokens: tokens, binding: browser)[1].pending.linkProviders == ["corp"])
        try fixture.services.social.choosePending(tokens[1], among: tokens, binding: browser)

        // A provider linked to another account proves nothing
        #expect(refusal { _ = try fixture.social(identity("corp-elsewhere", email: "x@elsewhere.example"), purpose: .linkPending,
                                                 pendingToken: tokens[1]) } == "social_wrong_account")
        let outcome = try fixture.social(identity("corp-home", email: "ann@home.example"), purpose: .linkPending, pendingToken: tokens[1])
        guard case .signedIn(let grant, created: false) = outcome else { Issue.record("expected .signedIn, got \(outcome)"); return }
        #expect(grant.session.accountId == home)
        #expect(try fixture.linkedIdentities().filter { $0.hasPrefix("github/") } == ["github/gh-1→\(home)"])
    }
}
