import Foundation
import Testing
@testable import AccountCore

struct SocialFlowsTests {
    let binding = [UInt8](repeating: 0xA5, count: 32)
    let otherBinding = [UInt8](repeating: 0x5A, count: 32)

    func refusalKey(_ body: () throws -> Void) -> String? {
        do {
            try body()
        } catch AccountError.refused(let key) {
            return key
        } catch {
            return "unexpected \(error)"
        }
        return nil
    }

    @Test func aFlowFinishesOnceWithWhatItWasBegunWith() throws {
        let fixture = try TestFixture()
        let flows = fixture.services.socialFlows
        let start = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding, returnTo: "/wiki/",
                                    invite: "", rememberMe: true)
        let flow = try flows.finish(state: start.state, provider: "corp", binding: binding)
        #expect(flow == SocialFlow(provider: "corp", purpose: .signIn, returnTo: "/wiki/", rememberMe: true,
                                   codeVerifier: start.codeVerifier, nonce: start.nonce))
        // Then it is used up
        #expect(refusalKey { _ = try flows.finish(state: start.state, provider: "corp", binding: binding) } == "social_state_invalid")
    }

    @Test func onlyDigestsAreStored() throws {
        let fixture = try TestFixture()
        let start = try fixture.services.socialFlows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        let row = try #require(try fixture.database.read { tx in try tx.row("SELECT * FROM socialFlow") })
        let state = try #require(SecretToken(encoded: start.state))
        #expect(row["digest"] as Data == state.digest)
        #expect(row["bindingDigest"] as Data == SocialFlows.digest(binding))
        #expect(row["expiresAt"] as Double == fixture.clock.now().timeIntervalSince1970 + 600)
        let stored = try fixture.database.read { tx in try tx.row("SELECT * FROM socialFlow") }
        let text = String(describing: stored)
        #expect(!text.contains(start.codeVerifier) && !text.contains(start.nonce) && !text.contains(start.state))
    }

    @Test func theVerifierAndNonceDependOnStateAndBindingOnly() throws {
        let fixture = try TestFixture()
        let start = try fixture.services.socialFlows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        #expect(start.codeVerifier == SocialFlows.codeVerifier(state: start.state, binding: binding), "stable")
        #expect(start.nonce == SocialFlows.nonce(state: start.state, binding: binding))
        #expect(start.codeVerifier != start.nonce)
        #expect(SocialFlows.codeVerifier(state: start.state, binding: otherBinding) != start.codeVerifier, "binding-dependent")
        #expect(SocialFlows.nonce(state: start.state, binding: otherBinding) != start.nonce)
        // RFC 7636: 43–128 characters of [A-Z a-z 0-9 - . _ ~]
        #expect(start.codeVerifier.count == 43)
        #expect(start.codeVerifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
        // Known values (computed apart, with Python's hmac): base64url(HMAC-SHA256(key: 32×0xA5, "pkce:state" / "nonce:state")).
        #expect(SocialFlows.codeVerifier(state: "state", binding: binding) == "JY23JQuUYKWvEIJRJKDKLOhx3SJKlRg8FTNia4IEdUE")
        #expect(SocialFlows.nonce(state: "state", binding: binding) == "Z0pvD2OinAIXhdznkinuOyOhRoFg_1z8HTafCgESZz0")
    }

    @Test func anotherBrowserOrProviderCannotFinishItAndDoesNotUseItUp() throws {
        let fixture = try TestFixture()
        let flows = fixture.services.socialFlows
        let start = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        #expect(refusalKey { _ = try flows.finish(state: start.state, provider: "corp", binding: otherBinding) } == "social_state_invalid")
        #expect(refusalKey { _ = try flows.finish(state: start.state, provider: "github", binding: binding) } == "social_state_invalid")
        #expect(refusalKey { _ = try flows.finish(state: start.state, provider: "corp", binding: []) } == "social_state_invalid")
        // The right browser still can
        #expect(try flows.finish(state: start.state, provider: "corp", binding: binding).provider == "corp")
    }

    @Test func unknownMalformedAndExpiredStatesAreRefused() throws {
        let fixture = try TestFixture()
        let flows = fixture.services.socialFlows
        #expect(refusalKey { _ = try flows.finish(state: "nonsense", provider: "corp", binding: binding) } == "social_state_invalid")
        let unknown = SecretToken(random: SeededRandomSource(seed: 99)).encoded
        #expect(refusalKey { _ = try flows.finish(state: unknown, provider: "corp", binding: binding) } == "social_state_invalid")
        let start = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        fixture.clock.advance(by: 600)
        #expect(refusalKey { _ = try flows.finish(state: start.state, provider: "corp", binding: binding) } == "social_state_invalid")
    }

    @Test func expiredFlowsAreRefusedAndThePrunerRemovesThem() throws {
        let fixture = try TestFixture()
        let flows = fixture.services.socialFlows
        let old = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        _ = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        fixture.clock.advance(by: 601)
        _ = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        #expect(try fixture.count("socialFlow") == 3, "beginning one purges nothing")
        #expect(refusalKey { _ = try flows.finish(state: old.state, provider: "corp", binding: binding) } == "social_state_invalid")
        #expect(try fixture.services.retention.deleteEnded()[.socialFlows] == 2)
        #expect(try fixture.count("socialFlow") == 1)
    }

    @Test func anInvitationIsSealedAndOpenedAgain() throws {
        let fixture = try TestFixture()
        let flows = fixture.services.socialFlows
        let invite = SecretToken(random: SeededRandomSource(seed: 7)).encoded
        let start = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding, invite: invite)
        let sealed = try #require(try fixture.database.read { tx in try tx.value(Data.self, "SELECT sealedInvite FROM socialFlow") })
        #expect(sealed.range(of: Data(invite.utf8)) == nil)
        #expect(try flows.finish(state: start.state, provider: "corp", binding: binding).invite == invite)
    }

    @Test func settingsFlowsCarryTheAccountAndLinkPendingTheDigestOfThePendingToken() throws {
        let fixture = try TestFixture()
        let flows = fixture.services.socialFlows
        let accountId = try fixture.signUp().session.accountId
        let link = try flows.begin(provider: "corp", purpose: .link, accountId: accountId, binding: binding)
        #expect(try flows.finish(state: link.state, provider: "corp", binding: binding).accountId == accountId)
        #expect(refusalKey { _ = try flows.begin(provider: "corp", purpose: .reauthenticate, accountId: nil, binding: binding) }
                == "social_state_invalid")

        let pending = SecretToken(random: SeededRandomSource(seed: 3))
        let start = try flows.begin(provider: "corp", purpose: .linkPending, accountId: nil, binding: binding, pendingToken: pending.encoded)
        let flow = try flows.finish(state: start.state, provider: "corp", binding: binding)
        #expect(flow.purpose == .linkPending)
        #expect(flow.pendingDigest == pending.digest && flow.pendingToken == nil)
        #expect(refusalKey { _ = try flows.begin(provider: "corp", purpose: .linkPending, accountId: nil, binding: binding) }
                == "social_pending_invalid")
        #expect(refusalKey { _ = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: []) } == "social_state_invalid")
    }

    @Test func ofTwoCallbacksWithOneStateExactlyOneGoesOn() async throws {
        let folder = NSTemporaryDirectory() + "frontdoor-flows-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixture = try TestFixture(databasePath: folder + "/db.sqlite")
        let flows = fixture.services.socialFlows
        let start = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: binding)
        let binding = binding
        let finished = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? flows.finish(state: start.state, provider: "corp", binding: binding)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(finished == 1)
    }
}
