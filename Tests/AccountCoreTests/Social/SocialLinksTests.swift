import Foundation
import Testing
@testable import AccountCore

struct SocialLinksTests {
    let client = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.3")

    @Test func theLinkedProvidersAreListedOldestFirst() throws {
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity("ann-corp", email: "ann@corp.example", name: "Ann (Corp)")).grant
        let linkedAt = fixture.clock.now()
        fixture.clock.advance(by: 60)
        _ = try fixture.social(identity("ann-gh", provider: "github", email: nil, name: "ann"), purpose: .link, session: grant.session)
        let links = fixture.services.socialLinks
        #expect(try links.identities(accountId: grant.session.accountId) == [
            LinkedIdentity(provider: "corp", email: "ann@corp.example", displayName: "Ann (Corp)", linkedAt: linkedAt, lastUsedAt: linkedAt),
            LinkedIdentity(provider: "github", email: nil, displayName: "ann", linkedAt: fixture.clock.now(), lastUsedAt: fixture.clock.now()),
        ])
        #expect(try links.identities(accountId: 999).isEmpty)
    }

    @Test func onlyAccountsMadeThroughAProviderHaveNoPassword() throws {
        let fixture = try TestFixture()
        let social = try fixture.socialSignIn(identity()).grant.session.accountId
        let classic = try fixture.signUp("bob@example.com").session.accountId
        #expect(try !fixture.services.socialLinks.hasPassword(accountId: social))
        #expect(try fixture.services.socialLinks.hasPassword(accountId: classic))
    }

    @Test func theLastWayToSignInCannotBeUnlinked() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.socialSignIn(identity()).grant.session.accountId
        #expect(refusal { try fixture.services.socialLinks.unlink(accountId: accountId, provider: "corp", client: client) } == "social_last_method")
        #expect(try fixture.linkedIdentities().count == 1)
        #expect(try fixture.audits(.identityUnlinked).isEmpty)
    }

    @Test func unlinkingWithAnotherWayLeftTellsTheOwner() throws {
        // Given a password-less account with two providers
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity()).grant
        _ = try fixture.social(identity("gh", provider: "github"), purpose: .link, session: grant.session)
        let links = fixture.services.socialLinks
        // When one is unlinked, the other stays and becomes the last way
        try links.unlink(accountId: grant.session.accountId, provider: "github", client: client)
        #expect(try links.identities(accountId: grant.session.accountId).map(\.provider) == ["corp"])
        #expect(try fixture.audits(.identityUnlinked).map { $0["detail"] as String } == ["github"])
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["identity_linked", "identity_unlinked"])
        #expect(refusal { try links.unlink(accountId: grant.session.accountId, provider: "corp", client: client) } == "social_last_method")
        // The unlinked identity is new again: it signs up no second account for the held address but asks to link
        guard case .needsLink = try fixture.social(identity("gh", provider: "github")) else { Issue.record("expected .needsLink"); return }
    }

    @Test func anAccountWithAPasswordCanUnlinkItsOnlyProvider() throws {
        let fixture = try TestFixture()
        let session = try fixture.signUp("ann@example.com").session
        _ = try fixture.social(identity(), purpose: .link, session: session)
        try fixture.services.socialLinks.unlink(accountId: session.accountId, provider: "corp", client: client)
        #expect(try fixture.linkedIdentities().isEmpty)
    }

    @Test func unlinkingAProviderNotLinkedIsNotFound() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        #expect(throws: AccountError.notFound) { try fixture.services.socialLinks.unlink(accountId: accountId, provider: "corp", client: client) }
    }

    @Test func theTokenEndpointFindsAccountsByVerifiedAddressOnly() throws {
        let fixture = try TestFixture()
        let social = try fixture.socialSignIn(identity()).grant.session.accountId
        try fixture.signUp("bob@example.com")   // not confirmed
        let links = fixture.services.socialLinks
        #expect(try links.accountId(forEmail: " ANN@example.com ") == social)
        #expect(try links.accountId(forEmail: "bob@example.com") == nil)
        #expect(try links.accountId(forEmail: "nobody@example.com") == nil)
    }

    @Test func refreshedTokensAreStoredSealedAndOpenOnlyForTheirIdentity() throws {
        let fixture = try TestFixture()
        let ann = try fixture.socialSignIn(identity("ann", email: "ann@example.com", tokens: "first")).grant.session.accountId
        let bob = try fixture.socialSignIn(identity("bob", email: "bob@example.com", tokens: "bob's")).grant.session.accountId
        let links = fixture.services.socialLinks
        let expires = Date(timeIntervalSince1970: 1_900_000_000)
        try links.storeTokens(accountId: ann, provider: "corp", tokens: Data("refreshed".utf8), expiresAt: expires)
        let opened = try #require(try links.tokens(accountId: ann, provider: "corp"))
        #expect(opened.tokens == Data("refreshed".utf8) && opened.expiresAt == expires)
        let sealed = try #require(try fixture.database.read { tx in
            try tx.value(Data.self, "SELECT sealedTokens FROM socialIdentity WHERE accountId = ?", [ann])
        })
        #expect(sealed.range(of: Data("refreshed".utf8)) == nil)
        // A sealed blob copied to another identity's row does not open there
        try fixture.database.write { tx in
            try tx.execute("UPDATE socialIdentity SET sealedTokens = ? WHERE accountId = ?", [sealed, bob])
        }
        #expect(throws: TokenVaultError.self) { try links.tokens(accountId: bob, provider: "corp") }
        // Nothing stored, or nothing linked: nil; storing for an identity that is gone: not found
        #expect(try links.tokens(accountId: ann, provider: "github") == nil)
        #expect(throws: AccountError.notFound) { try links.storeTokens(accountId: ann, provider: "github", tokens: Data(), expiresAt: nil) }
        let plain = try fixture.socialSignIn(identity("cy", email: "cy@example.com")).grant.session.accountId
        #expect(try links.tokens(accountId: plain, provider: "corp") == nil)
    }

    @Test func deletingTheAccountRemovesItsIdentities() throws {
        let fixture = try TestFixture()
        let session = try fixture.socialSignIn(identity()).grant.session
        try fixture.services.deletion.delete(session: session.digest, password: "", client: client)
        #expect(try fixture.count("socialIdentity") == 0)
        // The identity may sign up again
        #expect(try fixture.socialSignIn(identity()).created)
    }
}
