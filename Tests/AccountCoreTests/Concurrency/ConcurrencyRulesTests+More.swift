// ConcurrencyRulesTests+More.swift: more one-winner rules under real racing threads (issue 23), on the run's backend:
// an invitation used once (and either revoked or used, never both), a residence approved once and collected once, one
// primary address per account (two switches; a confirmation that makes primary racing a switch; a removal racing a
// switch), each due mail delivered once by several senders, one current signing key after rotations at once, one
// account per address whatever its case, revoked sessions staying revoked while in use, and never unlinking the last
// way to sign in. Each asserts the winners, what the losers were told, and the rows. Races with a short window run
// several rounds.
import AccountRules
import Foundation
import Locking
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

extension ConcurrencyRulesTests {
    /// What each racer got, sorted: "ok", an AccountError's case and keys, or another error's type and text.
    func answers(_ errors: [(any Error)?]) -> [String] {
        errors.map { error -> String in
            switch error {
            case nil: "ok"
            case AccountError.invalid(let errors)?: "invalid " + errors.entries.map { "\($0.field):\($0.error.key)" }.joined(separator: ",")
            case AccountError.refused(let key)?: "refused \(key)"
            case let error as AccountError: "\(error)"
            case let error?: "\(type(of: error)): \(error)"
            }
        }.sorted()
    }

    @Test func anInvitationUsedByTwoSignUpsAtOnceMakesOneAccount() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite))
        let invite = try fixture.services.invitations.create(email: "Ann@Example.com", client: client)
        let client = client
        let got = answers(outcomes(4) { _ in
            var form = TestFixture.form(email: "ann@example.com")
            form["invite"] = invite.token
            _ = try fixture.services.registration.signUp(form, client: client)
        })
        #expect(got.filter { $0 == "ok" }.count == 1, "\(got)")
        #expect(got.allSatisfy { ["ok", "invitationRequired", "invalid email:taken"].contains($0) }, "\(got)")
        #expect(try fixture.count("account") == 1 && fixture.count("emailAddress") == 1 && fixture.count("session") == 1)
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM invite WHERE usedAt IS NOT NULL") } == 1)
        #expect(try fixture.audits(.signUp).count == 1)
    }

    @Test func aRevocationRacingTheSignUpThatUsesTheInvitationHasOneWinner() throws {
        // Either the link signed Ann up and the revocation found nothing, or the revocation took it and no account exists.
        for round in 0..<4 {
            let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite))
            let invite = try fixture.services.invitations.create(email: "ann@example.com", client: client)
            let client = client
            let revoked = Locked(0)
            let got = answers(outcomes(2) { index in
                if index == 0 {
                    revoked.change { $0 = (try? fixture.services.invitations.revoke(email: "ann@example.com", client: client)) ?? -1 }
                } else {
                    var form = TestFixture.form(email: "ann@example.com")
                    form["invite"] = invite.token
                    _ = try fixture.services.registration.signUp(form, client: client)
                }
            })
            let accounts = try fixture.count("account"), count = revoked.withLock { $0 }
            #expect(got.contains("invitationRequired") ? (count == 1 && accounts == 0) : (count == 0 && accounts == 1),
                    "round \(round): \(got), revoked \(count), accounts \(accounts)")
        }
    }

    @Test func aResidenceIsApprovedOnceAndCollectedOnce() throws {
        let fixture = try TestFixture()
        let residences = fixture.services.residences, client = client
        for round in 1...4 {   // several rounds: the approvals' window is short
            let address = "new\(round)@example.com"
            let ticket = try residences.register(email: address, client: client)
            let message = try #require(try fixture.database.read { tx in
                try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'residence' AND recipientKey = ?", [address])
            })
            let link = String(try #require(message.firstMatch(of: /residence\(token: "([A-Za-z0-9_-]+)"/)).1)
            // Approving a new address creates its account: approvals at once must not make two, nor answer a bare error.
            let approvals = answers(outcomes(3) { _ in _ = try residences.approve(token: link, client: client) })
            #expect(approvals == ["invalidToken", "invalidToken", "ok"], "round \(round)")
            let collections = Locked(0)
            let collected = answers(outcomes(3) { _ in
                if case .verified = try residences.collect(id: ticket.id, secret: ticket.secret, client: client) { collections.change { $0 += 1 } }
            })
            #expect(collected == ["notFound", "notFound", "ok"] && collections.withLock { $0 } == 1, "round \(round)")
            #expect(try fixture.database.read { tx in try tx.value(String.self, "SELECT state FROM residence WHERE id = ?", [ticket.id]) } == "used")
        }
        #expect(try fixture.count("account") == 4 && fixture.count("session") == 4, "one account and one API token per request")
        #expect(try fixture.audits(.residenceApproved).count == 4 && fixture.audits(.signUp).count == 4)
    }

    /// The account's primary addresses (one, always).
    func primaries(_ fixture: TestFixture, _ accountId: Int64) throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT address FROM emailAddress WHERE accountId = ? AND isPrimary", [accountId]) }
    }

    @Test func twoPrimarySwitchesAtOnceLeaveOnePrimaryAddress() throws {
        let fixture = try TestFixture()
        let addresses = fixture.services.addresses, client = client
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        for letter in ["b", "c", "d"] { try addresses.add("\(letter)@example.com", to: accountId, client: client) }
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        for round in 1...6 {   // each round races two addresses that are not primary to become it
            let candidates = try addresses.all(of: accountId).filter { !$0.isPrimary }.shuffled().prefix(2).map { $0.id! }
            let got = answers(outcomes(2) { index in try addresses.makePrimary(addressId: candidates[index], of: accountId, client: client) })
            // Both are honoured, one after the other: the later choice is primary.
            #expect(got == ["ok", "ok"], "round \(round)")
            #expect(try primaries(fixture, accountId).count == 1, "round \(round)")
        }
        #expect(try fixture.audits(.emailChanged).count == 12, "each switch recorded")
        #expect(try fixture.mailKinds(to: "ann@example.com").filter { $0 == "primary_address_changed" }.count >= 1)
    }

    @Test func aConfirmationThatMakesPrimaryRacingASwitchLeavesOnePrimaryAddress() throws {
        let fixture = try TestFixture()
        let addresses = fixture.services.addresses, confirmation = fixture.services.confirmation, client = client
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        for letter in ["b", "c"] { try addresses.add("\(letter)@example.com", to: accountId, client: client) }
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        for round in 1...4 {
            let waiting = "new\(round)@example.com"
            try addresses.requestPrimaryChange(to: waiting, accountId: accountId, client: client)   // primary once confirmed
            let token = try verificationToken(fixture, to: waiting)
            let other = try #require(try addresses.all(of: accountId).first { !$0.isPrimary && $0.verifiedAt != nil }?.id)
            let got = answers(outcomes(2) { index in
                if index == 0 { _ = try confirmation.confirm(token: token, client: client) } else {
                    try addresses.makePrimary(addressId: other, of: accountId, client: client)
                }
            })
            #expect(got == ["ok", "ok"], "round \(round)")
            #expect(try primaries(fixture, accountId).count == 1, "round \(round)")
            #expect(try fixture.database.read { tx in
                try tx.value(Int.self, "SELECT COUNT(*) FROM emailAddress WHERE makePrimaryOnVerify")
            } == 0, "the waiting change was either done or dropped by the later switch")
        }
        #expect(try fixture.audits(.emailConfirmed).count == 4)
    }

    @Test func removingAnAddressWhileItIsMadePrimaryLeavesOnePrimaryAddress() throws {
        let fixture = try TestFixture()
        let addresses = fixture.services.addresses, client = client
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        for round in 1...4 {
            let added = try addresses.add("r\(round)@example.com", to: accountId, client: client)
            _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1 WHERE verifiedAt IS NULL") }
            let got = answers(outcomes(2) { index in
                if index == 0 { try addresses.makePrimary(addressId: added.id!, of: accountId, client: client) } else {
                    try addresses.remove(addressId: added.id!, of: accountId, client: client)
                }
            })
            // Either the switch went first (the address is primary and stays) or the removal (the switch finds no address).
            #expect(got == ["ok", "refused address_primary_remove"] || got == ["notFound", "ok"], "round \(round): \(got)")
            let primary = try primaries(fixture, accountId)
            #expect(primary.count == 1, "round \(round): \(primary)")
            let kept = try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM emailAddress WHERE id = ?", [added.id!]) }
            #expect((kept == 1) == (got == ["ok", "refused address_primary_remove"]), "round \(round)")
        }
    }

    /// A transport that records the Message-ID of every delivery.
    struct RecordingTransport: MailTransport {
        let delivered = Locked([String]())
        func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws {
            delivered.change { $0.append(id) }
        }
    }

    @Test func twoSendersDeliverEachDueMailOnce() throws {
        let fixture = try TestFixture()
        let transport = RecordingTransport()
        let queue = MailQueue(database: fixture.database, composer: LineComposer(), transport: transport, clock: fixture.clock,
                              random: SeededRandomSource(seed: 3), logger: Logger(label: "test"))
        try fixture.database.write { tx in
            for index in 0..<20 { try queue.enqueue(.passwordChanged, to: "user\(index)@example.com", in: tx) }
        }
        let sent = Locked((0, 0))
        let got = answers(outcomes(4) { _ in
            let (delivered, failed) = try queue.deliverDue()
            sent.change { $0.0 += delivered; $0.1 += failed }
        })
        #expect(got == ["ok", "ok", "ok", "ok"])
        let ids = transport.delivered.withLock { $0 }
        #expect(ids.count == 20 && Set(ids).count == 20, "each mail once: \(ids.count) deliveries of \(Set(ids).count) mails")
        #expect(sent.withLock { $0 } == (20, 0), "the senders' own counts agree")
        #expect(try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NOT NULL AND attempts = 1")
        } == 20)
    }

    @Test func twoKeyRotationsAtOnceLeaveOneCurrentKey() throws {
        let fixture = try TestFixture()
        let keys = SigningKeys(database: fixture.database, purpose: "browserid", clock: fixture.clock)
        try keys.addFirst(privateKey: "private-0", publicKey: "public-0")
        var rotated = 0
        for round in 1...3 {
            let got = answers(outcomes(3) { index in _ = try keys.rotate(privateKey: "private-\(round).\(index)", publicKey: "public") })
            // SQLite runs them one after the other (all succeed); on PostgreSQL a loser is told, and changed nothing.
            rotated += got.filter { $0 == "ok" }.count
            #expect(got.contains("ok") && got.allSatisfy { $0 == "ok" || $0.hasPrefix("ConcurrentRotation: another browserid key rotation") },
                    "round \(round): \(got)")
            #expect(try keys.all().filter { $0.retiredAt == nil }.count == 1, "round \(round)")
        }
        let all = try keys.all()
        #expect(all.count == 1 + rotated && all.filter { $0.retiredAt != nil }.count == rotated)
        #expect(try keys.current()?.id == all.first?.id, "the newest key is the current one")
    }

    @Test func twoAccountsAddingOneAddressInTwoCasesAtOnceGetOneOfIt() throws {
        let fixture = try TestFixture()
        let first = try fixture.signUp("ann@example.com").session.accountId
        let second = try fixture.signUp("bob@example.com").session.accountId
        let addresses = fixture.services.addresses, client = client
        let got = answers(outcomes(2) { index in
            _ = try addresses.add(index == 0 ? "Carol@Example.com" : "carol@EXAMPLE.com", to: index == 0 ? first : second, client: client)
        })
        #expect(got == ["invalid email:address_unavailable", "ok"])
        #expect(try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = 'carol@example.com'")
        } == 1)
        #expect(try fixture.audits(.emailAdded).count == 1)
        #expect(try fixture.mailKinds(to: "carol@example.com") == ["address_verification"])
        #expect(try fixture.count("accountToken") == 1, "one verification link, for the address that was added")
    }

    @Test func sessionsRevokedWhileInUseStayRevoked() throws {
        let fixture = try TestFixture()
        let first = try fixture.signUp("ann@example.com")
        let grants = [first] + (try (0..<3).map { _ in try fixture.signIn("ann@example.com") })
        fixture.clock.advance(by: 120)   // past the touch interval: every lookup writes lastSeenAt
        let services = fixture.services, accountId = first.session.accountId, client = client
        let fresh = Locked<Data?>(nil)
        let got = answers(outcomes(6) { index in
            switch index {
            case 0: _ = try services.administration.revokeSessions(accountId: accountId, client: client)
            case 5: let grant = try fixture.signIn("ann@example.com"); fresh.change { $0 = grant.token.digest }
            default: _ = try services.sessions.find(token: grants[index - 1].token.encoded)
            }
        })
        #expect(got == Array(repeating: "ok", count: 6))
        for grant in grants { #expect(try services.sessions.find(token: grant.token.encoded) == nil) }
        let left = try fixture.database.read { tx in try tx.values(Data.self, "SELECT digest FROM session") }
        // The sign-in racing the revocation either came before it (and was ended) or after it (and lives).
        let signedIn = try #require(fresh.withLock { $0 })
        #expect(left.isEmpty || left == [signedIn], "\(left.count) sessions left")
        #expect(try fixture.audits(.sessionRevoked).count == 1)
    }

    @Test func twoUnlinksAtOnceNeverRemoveTheLastWayToSignIn() throws {
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity()).grant   // no password
        let links = fixture.services.socialLinks, accountId = grant.session.accountId, client = client
        for round in 1...4 {   // each round links the other provider back and races the two unlinks
            let linked = try links.identities(accountId: accountId).map(\.provider)
            let other = linked == ["corp"] ? identity("gh", provider: "github") : identity()
            _ = try fixture.social(other, purpose: .link, session: grant.session)
            let got = answers(outcomes(2) { index in
                try links.unlink(accountId: accountId, provider: index == 0 ? "corp" : "github", client: client)
            })
            #expect(got == ["ok", "refused social_last_method"], "round \(round)")
            #expect(try fixture.linkedIdentities().count == 1, "round \(round)")
        }
        #expect(try fixture.audits(.identityUnlinked).count == 4)
        #expect(try fixture.mailKinds(to: "ann@example.com").filter { $0 == "identity_unlinked" }.count == 4)
    }
}
