// SeveralHostsTests+Background.swift: the work every host does at the same moment (issue 24), with racers on threads
// of their own released together: the mail senders of both hosts and `frontdoor mail retry` (each mail sent once,
// also when a pass outlasts the lease it began with, or the command runs while a host is sending), the pruners of both
// hosts and `frontdoor audit prune` (each old row deleted once, no error, the totals kept), failed sign-ins and
// sign-ups spread over both hosts (locked and limited at the configured counts, once), an invitation used on both.
import AccountRules
import Foundation
import Locking
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

extension SeveralHostsTests {
    /// A transport that records each delivery and then runs `during` (with the delivery's number, from 1): what
    /// happens elsewhere while this host waits for the SMTP server.
    struct PausingTransport: MailTransport {
        let delivered = Locked([String]())
        let during: @Sendable (Int) -> Void

        func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws {
            let count = delivered.withLock { $0.append(id); return $0.count }
            during(count)
        }
    }

    /// `host`'s mail queue with another transport.
    func queue(_ host: Host, _ transport: any MailTransport, clock: FixedClock) -> MailQueue {
        MailQueue(database: host.database, composer: LineComposer(), transport: transport, clock: clock,
                  random: SeededRandomSource(seed: 99), logger: Logger(label: "test"))
    }

    func count(_ host: Host, _ sql: String) throws -> Int {
        try host.database.read { tx in try tx.value(Int.self, sql) ?? 0 }
    }

    @Test func dueMailIsSentOnceWhenBothHostsAndTheMailCommandSendAtOnce() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let admin = try hosts.host("admin", seed: 13)
        for (index, host) in [hosts.a, hosts.b].enumerated() {
            try host.database.write { tx in
                for n in 0..<15 { try host.services.mail.enqueue(.passwordChanged, to: "user\(index)-\(n)@example.com", in: tx) }
            }
        }
        let senders = [hosts.a, hosts.b, hosts.a, hosts.b]
        let errors = together(5) { index in
            if index == 4 { try admin.services.mail.makeAllDue() }   // `frontdoor mail retry` from a third machine
            try (index < 4 ? senders[index] : admin).services.mail.deliverDue()
        }
        #expect(errors.compactMap { $0.map { "\($0)" } } == [])
        let ids = [hosts.a, hosts.b, admin].flatMap { $0.sent.delivered.withLock { $0 } }
        #expect(ids.count == 30 && Set(ids).count == 30, "each mail once: \(ids.count) deliveries of \(Set(ids).count) mails")
        #expect(try count(hosts.a, "SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NOT NULL AND attempts = 1") == 30)
    }

    /// `frontdoor mail retry` run while host A is sending a mail leaves that mail to A (before: it made the claimed
    /// mail due again and sent it a second time); a pass whose deliveries outlast the lease it began with still holds
    /// each mail's lease from its claim (before: host B's sender took the third mail of a slow pass and sent it too).
    @Test func aMailBeingSentByOneHostIsNotSentAgainByAnother() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let admin = try hosts.host("admin", seed: 13)
        let clock = hosts.clock
        let sendingOnA = PausingTransport { _ in
            try? admin.services.mail.makeAllDue()
            _ = try? admin.services.mail.deliverDue()
        }
        try hosts.a.database.write { tx in try hosts.a.services.mail.enqueue(.passwordChanged, to: "ann@example.com", in: tx) }
        #expect(try queue(hosts.a, sendingOnA, clock: clock).deliverDue() == (1, 0))
        #expect(admin.sent.delivered.withLock { $0 } == [], "the command left the mail A was sending to A")
        // A slow SMTP server: 200 s per mail, three mails, the lease is 300 s. B's sender runs during the third.
        let slowOnA = PausingTransport { number in
            clock.advance(by: 200)
            if number == 3 { _ = try? hosts.b.services.mail.deliverDue() }
        }
        try hosts.a.database.write { tx in
            for n in 0..<3 { try hosts.a.services.mail.enqueue(.passwordChanged, to: "slow\(n)@example.com", in: tx) }
        }
        #expect(try queue(hosts.a, slowOnA, clock: clock).deliverDue() == (3, 0))
        #expect(hosts.b.sent.delivered.withLock { $0 } == [], "B never sent a mail A held")
        #expect(try count(hosts.a, "SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NOT NULL AND attempts = 1") == 4)
    }

    @Test func prunersOfBothHostsAndTheAuditCommandAtOnceDeleteEachOldRowOnce() throws {
        let hosts = try Hosts()
        defer { hosts.remove() }
        let admin = try hosts.host("admin", seed: 13)
        let now = hosts.clock.now().timeIntervalSince1970, day: Double = 86400
        try hosts.a.database.write { tx in
            for n in 0..<300 {
                try tx.execute("INSERT INTO audit (createdAt, event, remoteAddress, userAgent, detail) VALUES (?, 'sign_in', '', '', 'old')",
                               [now - 400 * day + Double(n)])
            }
            for n in 0..<150 {
                let sentAt: Double? = n < 120 ? now - 40 * day : nil   // 30 never sent: they stay, however old
                try tx.execute("""
                    INSERT INTO mailQueue (kind, sender, recipient, recipientKey, subject, message, messageId, createdAt, attempts,
                                           nextAttemptAt, lastError, sentAt)
                    VALUES ('password_changed', 'a@b.c', 'ann@example.com', 'ann@example.com', 'old', 'text', ?, ?, 1, ?, ?, ?)
                    """, [UUID().uuidString, now - 41 * day, now + 3600, sentAt == nil ? "refused" : nil, sentAt])
            }
            try tx.execute("INSERT INTO audit (createdAt, event, remoteAddress, userAgent, detail) VALUES (?, 'sign_in', '', '', 'new')", [now])
        }
        let totals = try hosts.a.services.audit.counts()
        let retentions = [hosts.a, hosts.b].map { host -> Retention in
            var retention = host.services.retention
            retention.batchSize = 25
            return retention
        }
        let deleted = Locked([Int: [Int]]())
        let errors = together(3) { index in
            // The hosts' pruners at their configured ages; `frontdoor audit prune --older-than 90d` from a third.
            let outcomes = index < 2 ? try retentions[index].prune() : try admin.services.retention.prune(olderThan: 90 * day)
            deleted.change { $0[index] = outcomes.map(\.deleted) }
        }
        #expect(errors.compactMap { $0.map { "\($0)" } } == [])
        let all = deleted.withLock { Array($0.values) }
        #expect(all.map { $0[0] }.reduce(0, +) == 300, "each old audit row deleted once: \(all)")
        #expect(all.map { $0[1] }.reduce(0, +) == 120, "each old sent mail deleted once: \(all)")
        #expect(try hosts.b.database.read { tx in try tx.values(String.self, "SELECT detail FROM audit") } == ["new"])
        #expect(try count(hosts.b, "SELECT COUNT(*) FROM mailQueue") == 30)
        #expect(try hosts.b.services.audit.counts() == totals, "pruning counts nothing again and forgets no total")
    }

    /// Failures spread over both hosts count together: one short of the limit leaves the account open, the next one
    /// on the other host locks it; at once from both hosts, exactly the limit locks it, once (one audit row, one mail).
    @Test func failedSignInsSpreadOverBothHostsLockTheAccountAtTheLimitOnce() throws {
        let hosts = try Hosts(lockout: LockoutPolicy(maxFailures: 6))
        defer { hosts.remove() }
        let client = ClientInfo(userAgent: "Racer/1", remoteAddress: "198.51.100.7")
        let form = { (email: String) in TestFixture.form(email: email) }
        guard case .signedIn(let bob) = try hosts.a.services.registration.signUp(form("bob@example.com"), client: client),
              case .signedIn(let ann) = try hosts.b.services.registration.signUp(form("ann@example.com"), client: client) else {
            Issue.record("sign-up did not sign in"); return
        }
        let wrong = { (host: Host, email: String) in
            _ = try? host.services.authentication.signIn(email: email, password: "wrong password!", rememberMe: false, client: client)
        }
        for n in 0..<5 { wrong(n % 2 == 0 ? hosts.a : hosts.b, "bob@example.com") }
        #expect(try hosts.a.services.lockout.lockedUntil(accountId: bob.session.accountId) == nil, "five of six")
        wrong(hosts.b, "bob@example.com")
        #expect(try hosts.a.services.lockout.lockedUntil(accountId: bob.session.accountId) != nil, "the sixth, on the other host")
        let errors = together(6) { index in
            _ = try (index % 2 == 0 ? hosts.a : hosts.b).services.authentication.signIn(
                email: "ann@example.com", password: "wrong password!", rememberMe: false, client: client)
        }
        #expect(errors.allSatisfy { ($0 as? AccountError) == .invalidCredentials })
        #expect(try hosts.b.services.lockout.lockedUntil(accountId: ann.session.accountId) != nil, "six failures at once count six")
        #expect(try count(hosts.a, "SELECT COUNT(*) FROM audit WHERE event = 'lockout'") == 2, "one lock each")
        #expect(try count(hosts.a, "SELECT COUNT(*) FROM mailQueue WHERE kind = 'account_locked'") == 2, "one lock mail each")
        #expect(throws: AccountError.invalidCredentials) {
            try hosts.a.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false, client: client)
        }
    }

    @Test func theSignUpLimitCountsSignUpsOnBothHosts() throws {
        let hosts = try Hosts(signUp: SignUpPolicy(maxPerAddress: 3))
        defer { hosts.remove() }
        let client = ClientInfo(userAgent: "Racer/1", remoteAddress: "198.51.100.8")
        let errors = together(8) { index in
            _ = try (index % 2 == 0 ? hosts.a : hosts.b).services.registration.signUp(TestFixture.form(email: "racer\(index)@example.com"),
                                                                                      client: client)
        }
        #expect(errors.filter { $0 == nil }.count == 3)
        #expect(try count(hosts.a, "SELECT COUNT(*) FROM account") == 3)
    }

    @Test func anInvitationUsedOnBothHostsAtOnceMakesOneAccount() throws {
        let hosts = try Hosts(signUp: SignUpPolicy(mode: .invite))
        defer { hosts.remove() }
        let invite = try hosts.a.services.invitations.create(email: "ann@example.com", client: ClientInfo())
        let errors = together(4) { index in
            var form = TestFixture.form(email: "ann@example.com")
            form["invite"] = invite.token
            _ = try (index % 2 == 0 ? hosts.a : hosts.b).services.registration.signUp(form, client: ClientInfo())
        }
        #expect(errors.filter { $0 == nil }.count == 1)
        #expect(try count(hosts.b, "SELECT COUNT(*) FROM account") == 1)
        #expect(try count(hosts.b, "SELECT COUNT(*) FROM invite WHERE usedAt IS NOT NULL") == 1)
    }
}
