// BrowserSessionsTests.swift: several accounts in one browser: sign in (adding or not), switch, sign out one or all,
// who waits here; every change in one transaction.
import Foundation
import Testing
@testable import AccountCore

struct BrowserSessionsTests {
    let client = ClientInfo(userAgent: "Firefox", remoteAddress: "10.0.0.1")

    /// Signs `email` in with the browser's tokens `here`.
    func signIn(_ fixture: TestFixture, _ email: String, here: BrowserTokens, adding: Bool, rememberMe: Bool = false) throws -> BrowserState {
        let grant = try fixture.services.authentication.signIn(email: email, password: "correct horse", rememberMe: rememberMe,
                                                               client: client, here: here, keepPrevious: adding)
        guard let state = grant.browser else { throw FixtureError("a sign-in given the browser's tokens says what it must hold") }
        #expect(state.active?.token == grant.token.encoded)
        return state
    }

    func isLive(_ fixture: TestFixture, _ token: String) throws -> Bool {
        try fixture.services.sessions.find(token: token) != nil
    }

    func signOuts(_ fixture: TestFixture) throws -> Int {
        try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM audit WHERE event = 'sign_out'") ?? 0 }
    }

    /// Ann, then Bob, then Carol signed in to one browser, each added: Carol active, Bob and Ann waiting.
    func annBobAndCarol(_ fixture: TestFixture) throws -> (ann: SessionGrant, state: BrowserState) {
        let ann = try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        try fixture.signUp("carol@example.com")
        let state = try signIn(fixture, "bob@example.com", here: BrowserTokens(active: ann.token.encoded), adding: true)
        return (ann, try signIn(fixture, "carol@example.com", here: tokens(state), adding: true))
    }

    func tokens(_ state: BrowserState) -> BrowserTokens {
        BrowserTokens(active: state.active?.token, waiting: state.waiting.map(\.token))
    }

    /// A browser is never given more than `session.max_accounts` tokens, so a forged accounts cookie with many live
    /// tokens gets no more than that many looked up (each a round trip on PostgreSQL) and no more shown.
    @Test func noMoreWaitingTokensThanMaxAccountsAreLookedUp() throws {
        let fixture = try TestFixture(session: SessionPolicy(maxAccounts: 2))
        let tokens = try (1...6).map { try fixture.signUp("user\($0)@example.com").token.encoded }
        let here = BrowserTokens(active: nil, waiting: tokens)
        #expect(try fixture.services.browserSessions.waiting(here, activeAccount: nil).map(\.token) == Array(tokens.prefix(2)))
        let state = try fixture.services.browserSessions.signOutAll(here: here, client: client)
        #expect(state.active == nil && state.waiting.isEmpty)
        #expect(try tokens.map { try isLive(fixture, $0) } == [false, false, true, true, true, true])
    }

    @Test func addingAnAccountKeepsTheActiveOneWaitingAndSigningInAgainEndsIt() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        let added = try signIn(fixture, "bob@example.com", here: BrowserTokens(active: ann.token.encoded), adding: true)
        #expect(added.active?.session.email == "bob@example.com")
        #expect(added.waiting.map(\.token) == [ann.token.encoded])
        #expect(try isLive(fixture, ann.token.encoded))

        // Without adding, the browser's active session ends and nothing that waited is lost.
        let again = try signIn(fixture, "ann@example.com", here: tokens(added), adding: false)
        #expect(try !isLive(fixture, added.active!.token))
        #expect(try !isLive(fixture, ann.token.encoded), "the same account's older session ends: the session id changes at sign-in")
        #expect(again.waiting.isEmpty && again.active?.session.email == "ann@example.com")
    }

    @Test func theSameAccountsOlderSessionEndsWhetherActiveOrWaiting() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        let both = try signIn(fixture, "bob@example.com", here: BrowserTokens(active: ann.token.encoded), adding: true)
        // Ann waits; signing in to Ann again ends her waiting session, and Bob (active) waits now.
        let annAgain = try signIn(fixture, "ann@example.com", here: tokens(both), adding: true)
        #expect(try !isLive(fixture, ann.token.encoded))
        #expect(annAgain.waiting.map(\.token) == [both.active!.token])
        // Ann is active; signing in to Ann again ends the active session and Bob keeps waiting.
        let annThird = try signIn(fixture, "ann@example.com", here: tokens(annAgain), adding: true)
        #expect(try !isLive(fixture, annAgain.active!.token))
        #expect(annThird.waiting.map(\.token) == [both.active!.token])
    }

    @Test func beyondMaxAccountsTheOldestWaitingSessionEnds() throws {
        let fixture = try TestFixture(session: SessionPolicy(maxAccounts: 3))
        for name in ["a", "b", "c", "d"] { try fixture.signUp("\(name)@example.com") }
        var state = try signIn(fixture, "a@example.com", here: BrowserTokens(), adding: true)
        let first = state.active!.token
        state = try signIn(fixture, "b@example.com", here: tokens(state), adding: true)
        state = try signIn(fixture, "c@example.com", here: tokens(state), adding: true)
        #expect(state.waiting.map(\.session.email) == ["b@example.com", "a@example.com"])
        state = try signIn(fixture, "d@example.com", here: tokens(state), adding: true)
        #expect(state.active?.session.email == "d@example.com")
        #expect(state.waiting.map(\.session.email) == ["c@example.com", "b@example.com"])
        #expect(try !isLive(fixture, first), "the oldest waiting session ended")
        #expect(fixture.services.browserSessions.hasRoom(waiting: 1) && !fixture.services.browserSessions.hasRoom(waiting: 2))
    }

    @Test func deadWaitingTokensAreDroppedAndTheActiveAccountNeverWaits() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        let bob = try fixture.signUp("bob@example.com")
        let carol = try fixture.signUp("carol@example.com")
        let bobAgain = try fixture.signIn("bob@example.com")
        try fixture.services.sessions.revoke(token: carol.token.encoded)
        let annOther = try fixture.signIn("ann@example.com")
        let here = BrowserTokens(active: ann.token.encoded,
                                 waiting: ["not a token", carol.token.encoded, annOther.token.encoded, bob.token.encoded, bobAgain.token.encoded])
        let browser = fixture.services.browserSessions
        let waiting = try browser.waiting(here, activeAccount: ann.session.accountId)
        #expect(waiting.map(\.token) == [bob.token.encoded], "dead, the active account's and a second one of an account are left out")
        // A sign-in sees the same and keeps only the live ones.
        try fixture.signUp("dan@example.com")
        let state = try signIn(fixture, "dan@example.com", here: here, adding: true)
        #expect(state.waiting.map(\.token) == [ann.token.encoded, bob.token.encoded])
    }

    @Test func switchingMakesAWaitingAccountActiveAndTheActiveOneWaitsFirst() throws {
        let fixture = try TestFixture()
        let (ann, state) = try annBobAndCarol(fixture)
        let browser = fixture.services.browserSessions
        let switched = try browser.switchTo(handle: SessionManagement.handle(for: ann.token.digest), here: tokens(state))
        #expect(switched?.active?.token == ann.token.encoded)
        #expect(switched?.waiting.map(\.session.email) == ["carol@example.com", "bob@example.com"])
        #expect(try browser.switchTo(handle: "00112233445566778899aabbccddeeff", here: tokens(state)) == nil)
        #expect(try [ann.token.encoded, state.active!.token].allSatisfy { try isLive(fixture, $0) }, "switching ends nothing")
    }

    @Test func signingOutEndsTheActiveSessionAndTheNextWaitingOneBecomesActive() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        let both = try signIn(fixture, "bob@example.com", here: BrowserTokens(active: ann.token.encoded), adding: true)
        let browser = fixture.services.browserSessions
        let after = try browser.signOut(here: tokens(both), client: client)
        #expect(try !isLive(fixture, both.active!.token))
        #expect(after.active?.token == ann.token.encoded && after.waiting.isEmpty)
        let last = try browser.signOut(here: tokens(after), client: client)
        #expect(last.active == nil && last.waiting.isEmpty)
        #expect(try signOuts(fixture) == 2)
    }

    @Test func signingOutOfAllEndsEverySessionHere() throws {
        let fixture = try TestFixture()
        let (ann, state) = try annBobAndCarol(fixture)
        let all = [state.active!.token] + state.waiting.map(\.token)
        #expect(all.count == 3 && all.contains(ann.token.encoded))
        let after = try fixture.services.browserSessions.signOutAll(here: tokens(state), client: client)
        #expect(after.active == nil && after.waiting.isEmpty)
        #expect(try all.allSatisfy { try !isLive(fixture, $0) })
        #expect(try signOuts(fixture) == 3)
    }

    @Test func theWaitingCookieOutlivesTheBrowserOnlyWhenEveryWaitingSessionIsRemembered() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        try fixture.signUp("carol@example.com")
        var state = try signIn(fixture, "ann@example.com", here: BrowserTokens(), adding: true, rememberMe: true)
        state = try signIn(fixture, "bob@example.com", here: tokens(state), adding: true)
        #expect(state.waitingOutlivesBrowser)
        state = try signIn(fixture, "carol@example.com", here: tokens(state), adding: true, rememberMe: true)
        #expect(!state.waitingOutlivesBrowser, "Bob's session is not remembered")
    }

    @Test func aSignInThatFailsHalfWayLeavesTheBrowsersSessionsAsTheyWere() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com")
        let bob = try fixture.signUp("bob@example.com")
        let here = BrowserTokens(active: ann.token.encoded, waiting: [bob.token.encoded])
        let sessionsBefore = try fixture.count("session")
        var failed = false
        do {
            try fixture.database.write { tx in
                let grant = try fixture.services.sessions.create(in: tx, accountId: bob.session.accountId, email: "bob@example.com",
                                                                 rememberMe: false, client: client, here: here, keepPrevious: false)
                #expect(grant.browser?.waiting.isEmpty == true, "inside the transaction, Ann's and Bob's sessions ended")
                throw FixtureError("the rest of the sign-in failed")
            }
        } catch is FixtureError {
            failed = true
        }
        #expect(failed)
        #expect(try isLive(fixture, ann.token.encoded) && isLive(fixture, bob.token.encoded))
        #expect(try fixture.count("session") == sessionsBefore)
    }
}
