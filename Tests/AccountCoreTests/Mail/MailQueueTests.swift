import Foundation
import Locking
import Logging
import MailTestKit
import StorageTestKit
import Testing
@testable import AccountCore

/// Words every kind of mail in one line; enough to see what was queued.
struct LineComposer: MailComposer {
    /// The language the queue asked for, in a header-safe word of the text ("lang=fr", "lang=default").
    func compose(_ kind: MailKind, to address: String, language: String?) throws -> MailMessage {
        MailMessage(from: "Frontdoor <no-reply@example.com>", to: address, subject: kind.name,
                    text: "\(kind) lang=\(language ?? "default")", html: "<p>\(kind.name)</p>")
    }
}

struct MailQueueTests {
    func makeQueue(transport: any MailTransport, clock: FixedClock) throws -> (MailQueue, AppDatabase) {
        let database = try TestDatabase.make()
        var queue = MailQueue(database: database, composer: LineComposer(), transport: transport, clock: clock,
                              random: SeededRandomSource(seed: 1), logger: Logger(label: "test"))
        queue.retryBase = 30
        return (queue, database)
    }

    func outboxFolder() -> String { NSTemporaryDirectory() + "frontdoor-outbox-" + UUID().uuidString }

    @Test func queuedMailIsWrittenToTheOutboxAsAnEmlFile() throws {
        let clock = FixedClock(), folder = outboxFolder()
        let (queue, database) = try makeQueue(transport: OutboxTransport(folder: folder), clock: clock)
        try database.write { tx in try queue.enqueue(.passwordChanged, to: "ann@example.com", in: tx) }
        #expect(try queue.deliverDue() == (1, 0))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1 && files[0].hasSuffix(".eml"))
        let text = try String(contentsOfFile: folder + "/" + files[0], encoding: .utf8)
        #expect(text.contains("To: ann@example.com\r\n") && text.contains("Subject: password_changed\r\n"))
        #expect(try queue.deliverDue() == (0, 0), "sent mail is not sent again")
        #expect(try queue.list().first?.sentAt == clock.now())
    }

    /// The account's preference first, else the language the caller gives (the request's), else the default.
    @Test func mailIsWordedInTheRecipientsAccountLanguageElseTheFallback() throws {
        let clock = FixedClock(), folder = outboxFolder()
        let (queue, database) = try makeQueue(transport: OutboxTransport(folder: folder), clock: clock)
        try database.write { tx in
            _ = try Account.insert(address: "Ann@Example.com", passwordHash: "x", verified: true, language: "fr", now: clock.now(), in: tx)
            _ = try Account.insert(address: "bob@example.com", passwordHash: "x", verified: true, language: nil, now: clock.now(), in: tx)
            try queue.enqueue(.passwordChanged, to: "ann@example.com", fallback: "de", in: tx)
            try queue.enqueue(.passwordChanged, to: "bob@example.com", fallback: "de", in: tx)
            try queue.enqueue(.signUpAttempt, to: "bob@example.com", in: tx)
            try queue.enqueue(.invitation(token: "t"), to: "new@example.com", in: tx)
        }
        let texts = try database.read { tx in try tx.values(String.self, "SELECT message FROM mailQueue ORDER BY id") }
        let read = try texts.map { try ReadMail($0).readable }
        #expect(read.map { $0.firstMatch(of: /lang=([a-z]+)/).map { String($0.output.1) } } == ["fr", "de", "default", "default"])
    }

    @Test func aFailedDeliveryStaysQueuedAndIsRetriedWithBackoff() throws {
        // Given an SMTP server that is down (nothing listens on port 1)
        let clock = FixedClock()
        let down = SMTPTransport(settings: .init(url: "smtp://127.0.0.1:1", timeout: 5))
        let (queue, database) = try makeQueue(transport: down, clock: clock)
        try database.write { tx in try queue.enqueue(.signUpAttempt, to: "ann@example.com", in: tx) }
        // When delivery fails twice
        #expect(try queue.deliverDue() == (0, 1))
        #expect(try queue.deliverDue() == (0, 0), "not due again before the backoff")
        clock.advance(by: 30)
        #expect(try queue.deliverDue() == (0, 1))
        // Then it waits twice as long, keeps its error, and is never lost
        let mail = try #require(try queue.list().first)
        #expect(mail.attempts == 2 && mail.sentAt == nil)
        #expect(mail.nextAttemptAt == clock.now() + 60)
        #expect(mail.lastError?.contains("SMTP delivery") == true)
        // And a forced retry makes it due at once
        try queue.makeAllDue()
        #expect(try queue.deliverDue() == (0, 1))
    }

    @Test func twoSendersNeverDeliverTheSameMessage() throws {
        // Given two queues over one database (the server's sender and `frontdoor mail retry`)
        let clock = FixedClock(), folder = outboxFolder()
        let (first, database) = try makeQueue(transport: OutboxTransport(folder: folder), clock: clock)
        var second = first
        second.retryBase = 30
        try database.write { tx in
            for i in 0..<20 { try first.enqueue(.passwordChanged, to: "user\(i)@example.com", in: tx) }
        }
        // When both deliver at the same time
        let group = DispatchGroup()
        final class Total: @unchecked Sendable { let lock = Lock(); var sent = 0 }
        let total = Total()
        for queue in [first, second] {
            group.enter()
            Thread {
                let result = (try? queue.deliverDue()) ?? (sent: 0, failed: 0)
                total.lock.withLock { total.sent += result.sent }
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        // Then every message went out exactly once
        #expect(total.sent == 20)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 20)
    }

    /// A claim is a conditional UPDATE: the second claim of the same due message changes no row and loses.
    @Test func aDueMessageIsClaimedOnce() throws {
        let clock = FixedClock()
        let (queue, database) = try makeQueue(transport: OutboxTransport(folder: outboxFolder()), clock: clock)
        try database.write { tx in try queue.enqueue(.passwordChanged, to: "ann@example.com", in: tx) }
        let now = clock.now().timeIntervalSince1970
        let id = try #require(try queue.list().first?.id)
        #expect(try database.write { tx in try tx.claimMail(id: id, now: now, until: now + 300) })
        #expect(try database.write { tx in try tx.claimMail(id: id, now: now, until: now + 300) } == false)
    }

    @Test func throttlingLooksAtTheKindTheAddressAndTheWindow() throws {
        let clock = FixedClock()
        let (queue, database) = try makeQueue(transport: OutboxTransport(folder: outboxFolder()), clock: clock)
        try database.write { tx in
            try queue.enqueue(.confirmation(token: "t"), to: "Ann@Example.com", in: tx)
            #expect(try queue.isThrottled(.confirmation(token: "other"), to: "ann@example.com", in: tx))
            #expect(try !queue.isThrottled(.passwordReset(token: "t"), to: "ann@example.com", in: tx))
            #expect(try !queue.isThrottled(.confirmation(token: "t"), to: "bob@example.com", in: tx))
        }
        clock.advance(by: 61)
        #expect(try database.read { tx in try queue.isThrottled(.confirmation(token: "t"), to: "ann@example.com", in: tx) } == false)
    }

    @Test func theSenderAddressIsTakenFromItsAngleBrackets() {
        #expect(MailQueue.bareAddress("Frontdoor <no-reply@example.com>") == "no-reply@example.com")
        #expect(MailQueue.bareAddress("plain@example.com") == "plain@example.com")
    }
}
