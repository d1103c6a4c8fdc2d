@testable import AccountCore
import AccountRules
import Encodings
import Foundation
import IPAddresses
import MailTestKit
import StorageTestKit
import Testing

/// Email residences: register → the mailed link approves → the device collects an API token once (Residences.swift).
struct ResidencesTests {
    let device = ClientInfo(userAgent: "FrontdoorKit/1.0 (iPhone)", remoteAddress: "198.51.100.7")
    let browserClient = ClientInfo(userAgent: "Firefox", remoteAddress: "192.0.2.1")

    /// The approval token of the newest residence mail to `address`.
    func linkToken(_ fixture: TestFixture, to address: String) throws -> String {
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'residence' AND recipientKey = ? ORDER BY id DESC",
                         [address.lowercased()])
        })
        return String(try #require(message.firstMatch(of: /residence\(token: "([A-Za-z0-9_-]+)"/)).1)
    }

    func residence(_ fixture: TestFixture, _ id: String) throws -> SQLRow? {
        try fixture.database.read { tx in try tx.row("SELECT * FROM residence WHERE id = ?", [id]) }
    }

    /// Registers `email` and approves it from its mail; returns the ticket.
    func approved(_ fixture: TestFixture, _ email: String) throws -> ResidenceTicket {
        let ticket = try fixture.services.residences.register(email: email, client: device)
        try fixture.services.residences.approve(token: try linkToken(fixture, to: email), client: browserClient)
        return ticket
    }

    /// The grant of a collection that must be verified.
    func collected(_ fixture: TestFixture, _ ticket: ResidenceTicket) throws -> (email: String, grant: SessionGrant) {
        let collection = try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device)
        guard case .verified(let email, let grant) = collection else { throw FixtureError("expected .verified, got \(collection)") }
        return (email, grant)
    }

    // MARK: Register

    @Test func aRequestIsStoredAsDigestsAndItsLinkMailed() throws {
        let fixture = try TestFixture()
        let ticket = try fixture.services.residences.register(email: "  Ann@Example.com ", client: device)
        #expect(ticket.id.count == 22 && Base64URL.decode(ticket.id)?.count == 16)
        let secret = try #require(SecretToken(encoded: ticket.secret))
        let row = try #require(try residence(fixture, ticket.id))
        #expect(row["address"] as String == "Ann@Example.com" && row["normalizedAddress"] as String == "ann@example.com")
        #expect(row["secretDigest"] as Data == secret.digest, "only the digest of the secret")
        #expect(row["state"] as String == "pending" && (row["accountId"] as Int64?) == nil)
        #expect(row["userAgent"] as String == device.userAgent && row["remoteAddress"] as String == device.remoteAddress)
        #expect(row["expiresAt"] as Double == fixture.clock.now().timeIntervalSince1970 + 600)
        #expect(try fixture.mailKinds(to: "ann@example.com") == ["residence"])
        let link = try #require(SecretToken(encoded: try linkToken(fixture, to: "ann@example.com")))
        #expect(row["linkDigest"] as Data == link.digest)
        let audit = try #require(try fixture.audits(.residenceRequested).first)
        #expect(audit["email"] as String == "Ann@Example.com" && (audit["accountId"] as Int64?) == nil)
        #expect(try fixture.count("account") == 0, "nothing is created before the approval")
        guard case .pending = try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device) else {
            Issue.record("expected .pending"); return
        }
    }

    @Test func theMailNamesTheAskingDevice() throws {
        let fixture = try TestFixture()
        _ = try fixture.services.residences.register(email: "ann@example.com", client: device)
        let message = try #require(try fixture.database.read { tx in try tx.value(String.self, "SELECT message FROM mailQueue") })
        #expect(try ReadMail(message).readable.contains(#"userAgent: "FrontdoorKit/1.0 (iPhone)", remoteAddress: "198.51.100.7""#))
    }

    @Test func anInvalidAddressIsRefusedWithTheSignUpRulesAndNothingStored() throws {
        let fixture = try TestFixture()
        for email in ["", "not an address"] {
            do {
                _ = try fixture.services.residences.register(email: email, client: device)
                Issue.record("expected .invalid for \(email)")
            } catch AccountError.invalid(let errors) {
                #expect(errors.entries.map(\.field) == ["email"])
            }
        }
        #expect(try [fixture.count("residence"), fixture.count("mailQueue"), fixture.count("audit")] == [0, 0, 0])
    }

    @Test func aSecondRequestForTheAddressWithinTheThrottleIsRefusedWithoutARow() throws {
        let fixture = try TestFixture()
        _ = try fixture.services.residences.register(email: "ann@example.com", client: device)
        #expect(refusal { _ = try fixture.services.residences.register(email: "ANN@example.com", client: device) } == "residence_throttled")
        #expect(try [fixture.count("residence"), fixture.count("mailQueue")] == [1, 1])
        #expect(try fixture.audits(.residenceRequested).count == 1)
        // Another address is not held back, and the window passes.
        _ = try fixture.services.residences.register(email: "bob@example.com", client: device)
        fixture.clock.advance(by: 61)
        _ = try fixture.services.residences.register(email: "ann@example.com", client: device)
        #expect(try fixture.count("residence") == 3)
    }

    @Test func aBlockedClientOrALockedAccountGetsTheSameAnswerWithoutAMail() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        try fixture.services.lockout.lock(accountId: accountId, client: ClientInfo())
        let locked = try fixture.services.residences.register(email: "ann@example.com", client: device)
        _ = try fixture.database.write { tx in
            try tx.execute("INSERT INTO addressBlock (remoteAddress, blockedUntil) VALUES (?, ?)",
                           [device.remoteAddress, fixture.clock.now().timeIntervalSince1970 + 600])
        }
        let blocked = try fixture.services.residences.register(email: "bob@example.com", client: device)
        #expect(locked.id != blocked.id)
        #expect(try fixture.count("residence") == 2)
        #expect(try fixture.count("mailQueue") == 0)
        #expect(try fixture.audits(.residenceRequested).map { $0["accountId"] as Int64? } == [accountId, nil])
    }

    @Test func expiredRequestsAreRefusedAndThePrunerRemovesThem() throws {
        let fixture = try TestFixture()
        let old = try fixture.services.residences.register(email: "ann@example.com", client: device)
        fixture.clock.advance(by: 3601)
        _ = try fixture.services.residences.register(email: "bob@example.com", client: device)
        #expect(try fixture.count("residence") == 2, "a new request purges nothing")
        #expect(throws: AccountError.notFound) { try fixture.services.residences.collect(id: old.id, secret: old.secret, client: device) }
        #expect(try fixture.services.retention.deleteEnded()[.residences] == 1)
        #expect(try residence(fixture, old.id) == nil)
        #expect(try fixture.count("residence") == 1)
    }

    // MARK: Approve

    @Test func theApprovalPageShowsThePendingRequestUntilItIsDecided() throws {
        let fixture = try TestFixture()
        _ = try fixture.services.residences.register(email: "Ann@Example.com", client: device)
        let token = try linkToken(fixture, to: "ann@example.com")
        let request = try fixture.services.residences.pendingApproval(token: token)
        #expect(request == ResidenceRequest(email: "Ann@Example.com", userAgent: device.userAgent, remoteAddress: device.remoteAddress,
                                            createdAt: fixture.clock.now()))
        #expect(try fixture.services.residences.approve(token: token, client: browserClient) == "Ann@Example.com")
        #expect(throws: AccountError.invalidToken) { try fixture.services.residences.pendingApproval(token: token) }
        #expect(throws: AccountError.invalidToken) { try fixture.services.residences.approve(token: token, client: browserClient) }
        #expect(try fixture.count("account") == 1, "approving twice makes nothing more")
    }

    @Test func unknownMalformedAndExpiredLinksAreInvalid() throws {
        let fixture = try TestFixture()
        _ = try fixture.services.residences.register(email: "ann@example.com", client: device)
        let token = try linkToken(fixture, to: "ann@example.com")
        for bad in ["", "short", SecretToken(random: SeededRandomSource(seed: 99)).encoded] {
            #expect(throws: AccountError.invalidToken) { try fixture.services.residences.pendingApproval(token: bad) }
            #expect(throws: AccountError.invalidToken) { try fixture.services.residences.approve(token: bad, client: browserClient) }
        }
        fixture.clock.advance(by: 3600)
        #expect(throws: AccountError.invalidToken) { try fixture.services.residences.pendingApproval(token: token) }
        #expect(throws: AccountError.invalidToken) { try fixture.services.residences.approve(token: token, client: browserClient) }
        #expect(try fixture.count("account") == 0)
    }

    @Test func anUnknownAddressGetsAPasswordlessVerifiedAccountWhenSignUpIsOpen() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let ticket = try approved(fixture, "Ann@Example.com")
        let row = try #require(try residence(fixture, ticket.id))
        let accountId = try #require(row["accountId"] as Int64?)
        #expect(row["state"] as String == "verified" && row["verifiedAt"] as Double? == fixture.clock.now().timeIntervalSince1970)
        #expect(try fixture.passwordHash(accountId) == "")
        let address = try #require(try fixture.database.read { tx in try tx.row("SELECT address, isPrimary, verifiedAt FROM emailAddress") })
        #expect(address["isPrimary"] as Bool && address["verifiedAt"] as Date? == fixture.clock.now() && address["address"] as String == "Ann@Example.com")
        #expect(try fixture.audits(.signUp).map { $0["detail"] as String } == ["residence"])
        #expect(try fixture.audits(.residenceApproved).map { $0["accountId"] as Int64? } == [accountId])
        #expect(try fixture.count("session") == 0, "the token waits for the device")
    }

    @Test func theAccountHoldingTheAddressVerifiedIsUsedAsItIs() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        let before = try fixture.passwordHash(accountId)
        let ticket = try approved(fixture, "ANN@example.com")
        #expect(try residence(fixture, ticket.id)?["accountId"] as Int64? == accountId)
        #expect(try fixture.count("account") == 1 && fixture.passwordHash(accountId) == before)
        #expect(try fixture.audits(.signUp).count == 1, "only the first sign-up")
        #expect(try fixture.database.read { tx in try tx.value(Double.self, "SELECT verifiedAt FROM emailAddress") } == 1)
    }

    @Test func anUnverifiedPrimaryAddressIsVerifiedByTheApproval() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        _ = try approved(fixture, "ann@example.com")
        let address = try #require(try fixture.database.read { tx in try tx.row("SELECT verifiedAt FROM emailAddress") })
        #expect(address["verifiedAt"] as Date? == fixture.clock.now())
        #expect(try fixture.audits(.emailConfirmed).map { $0["detail"] as String } == ["residence"])
        #expect(try fixture.count("account") == 1)
    }

    @Test func anotherAccountsUnverifiedAddedAddressIsRefusedAndStaysUnverified() throws {
        let fixture = try TestFixture()
        let bob = try fixture.signUp("bob@example.com").session.accountId
        try fixture.services.addresses.add("ann@example.com", to: bob, client: ClientInfo())
        let ticket = try fixture.services.residences.register(email: "ann@example.com", client: device)
        let token = try linkToken(fixture, to: "ann@example.com")
        #expect(refusal { try fixture.services.residences.approve(token: token, client: browserClient) } == "residence_refused")
        let row = try #require(try residence(fixture, ticket.id))
        #expect(row["state"] as String == "refused" && (row["accountId"] as Int64?) == nil, "the refusal is committed")
        #expect(try fixture.audits(.residenceRefused).map { $0["accountId"] as Int64? } == [bob])
        #expect(try fixture.services.addresses.verified("ann@example.com", of: bob) == nil)
        #expect(try fixture.count("account") == 1)
        guard case .refused(let key) = try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device) else {
            Issue.record("expected .refused"); return
        }
        #expect(key == "residence_refused")
        #expect(throws: AccountError.invalidToken) { try fixture.services.residences.approve(token: token, client: browserClient) }
    }

    @Test(arguments: [SignUpPolicy.Mode.invite, .closed])
    func anUnknownAddressIsRefusedUnlessSignUpIsOpen(mode: SignUpPolicy.Mode) throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: mode))
        let ticket = try fixture.services.residences.register(email: "ann@example.com", client: device)
        #expect(refusal { try fixture.services.residences.approve(token: try linkToken(fixture, to: "ann@example.com"), client: browserClient) }
                == "residence_refused")
        #expect(try fixture.count("account") == 0 && fixture.count("emailAddress") == 0)
        #expect(try residence(fixture, ticket.id)?["state"] as String? == "refused")
        #expect(try fixture.audits(.residenceRefused).count == 1)
    }

    @Test func aFailedApprovalLeavesNoAccountAndTheRequestPending() throws {
        // Given a trigger that fails the approval's last step (the request's update), after the account was made
        let fixture = try TestFixture()
        let ticket = try fixture.services.residences.register(email: "ann@example.com", client: device)
        _ = try fixture.database.write { tx in
            try tx.installTrigger("boom", "BEFORE", "UPDATE", on: "residence", when: "NEW.state = 'verified'")
        }
        let token = try linkToken(fixture, to: "ann@example.com")
        #expect(throws: StorageError.self) { try fixture.services.residences.approve(token: token, client: browserClient) }
        #expect(try [fixture.count("account"), fixture.count("emailAddress")] == [0, 0])
        #expect(try fixture.audits(.signUp).isEmpty && fixture.audits(.residenceApproved).isEmpty)
        #expect(try residence(fixture, ticket.id)?["state"] as String? == "pending")
    }

    // MARK: Collect

    /// Two approvals or two collections racing past their reads: the conditional UPDATEs let one of each win.
    @Test func aRequestIsDecidedOnceAndUsedOnce() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        let ticket = try fixture.services.residences.register(email: "ann@example.com", client: device)
        let now = fixture.clock.now().timeIntervalSince1970
        let outcomes = try fixture.database.write { tx in
            [try tx.approveResidence(id: ticket.id, accountId: accountId, verifiedAt: now, expiresAt: now + 60),
             try tx.approveResidence(id: ticket.id, accountId: accountId, verifiedAt: now, expiresAt: now + 60),
             try tx.refuseResidence(id: ticket.id),
             try tx.useResidence(id: ticket.id, now: now),
             try tx.useResidence(id: ticket.id, now: now)]
        }
        #expect(outcomes == [true, false, false, true, false])
        #expect(try residence(fixture, ticket.id)?["state"] as String? == "used")
    }

    @Test func aVerifiedRequestIsCollectedOnceForAnAPIToken() throws {
        let fixture = try TestFixture()
        let ticket = try approved(fixture, "Ann@Example.com")
        let (email, grant) = try collected(fixture, ticket)
        #expect(email == "Ann@Example.com")
        #expect(grant.session.kind == .api && grant.session.email == "Ann@Example.com")
        #expect(try fixture.sessionRow(grant)?["kind"] as String? == "api")
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded)?.accountId == grant.session.accountId)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) == nil, "never a browser session")
        let row = try #require(try residence(fixture, ticket.id))
        #expect(row["state"] as String == "used" && row["usedAt"] as Double? == fixture.clock.now().timeIntervalSince1970)
        #expect(try fixture.audits(.signIn).map { $0["detail"] as String } == ["residence"])
        #expect(throws: AccountError.notFound) { try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device) }
        #expect(try fixture.count("session") == 1)
    }

    @Test func anExistingAccountGetsItsOwnToken() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        let grant = try collected(fixture, try approved(fixture, "ann@example.com")).grant
        #expect(grant.session.accountId == accountId)
    }

    @Test func aWrongSecretAnUnknownIdAndAnExpiredRequestAreNotFound() throws {
        let fixture = try TestFixture()
        let ticket = try fixture.services.residences.register(email: "ann@example.com", client: device)
        let other = SecretToken(random: SeededRandomSource(seed: 42)).encoded
        for (id, secret) in [(ticket.id, other), (ticket.id, "malformed"), ("unknown-id-0000000000", ticket.secret), (ticket.id, "")] {
            #expect(throws: AccountError.notFound) { try fixture.services.residences.collect(id: id, secret: secret, client: device) }
        }
        fixture.clock.advance(by: 3600)
        #expect(throws: AccountError.notFound) { try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device) }
    }

    @Test func anApprovedRequestWaitsALifetimeFromItsApprovalForTheDevice() throws {
        let fixture = try TestFixture()
        let ticket = try fixture.services.residences.register(email: "ann@example.com", client: device)
        fixture.clock.advance(by: 500)
        try fixture.services.residences.approve(token: try linkToken(fixture, to: "ann@example.com"), client: browserClient)
        fixture.clock.advance(by: 500)
        _ = try collected(fixture, ticket)

        let late = try approved(fixture, "bob@example.com")
        fixture.clock.advance(by: 3600)
        #expect(throws: AccountError.notFound) { try fixture.services.residences.collect(id: late.id, secret: late.secret, client: device) }
    }

    @Test func aDeletedAccountsApprovalCannotBeCollected() throws {
        let fixture = try TestFixture()
        let ticket = try approved(fixture, "ann@example.com")
        _ = try fixture.database.write { tx in try tx.execute("DELETE FROM account") }
        #expect(throws: AccountError.notFound) { try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device) }
    }

    @Test func aFailedCollectionIssuesNoTokenAndKeepsTheRequestVerified() throws {
        let fixture = try TestFixture()
        let ticket = try approved(fixture, "ann@example.com")
        _ = try fixture.database.write { tx in
            try tx.installTrigger("boom", "BEFORE", "INSERT", on: "audit", when: "NEW.detail = 'residence' AND NEW.event = 'sign_in'")
        }
        #expect(throws: StorageError.self) { try fixture.services.residences.collect(id: ticket.id, secret: ticket.secret, client: device) }
        #expect(try fixture.count("session") == 0)
        #expect(try residence(fixture, ticket.id)?["state"] as String? == "verified")
        _ = try fixture.database.write { tx in try tx.dropTrigger("boom", on: "audit") }
        _ = try collected(fixture, ticket)
    }
}
