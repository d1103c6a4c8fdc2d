// MailQueue.swift: mail is queued in the database inside the request's transaction, then delivered by a sender with retries.
//
// Options (config section `mail`):
//   retry_base   first retry delay; doubles per failed attempt up to one hour
//   throttle     at most one mail of a kind per address in this window
// A delivery failure never fails the web request: it stays queued with its error and is retried. Delivered mail older
// than `retention.sent_mail` is pruned (see Retention); unsent mail is never.
import AccountRules
import Foundation
import Logging

/// What a mail is about; decides its wording (see `MailComposer`) and throttling.
public enum MailKind: Sendable, Equatable {
    /// "Confirm your address": carries the raw confirmation token for the link.
    case confirmation(token: String)
    /// To the owner of an address someone tried to sign up with again.
    case signUpAttempt
    /// "Reset your password": carries the raw reset token for the link.
    case passwordReset(token: String)
    /// "Your password was changed", naming the providers linked to the account (their ids), which sign in without it.
    case passwordChanged(providers: [String])
    /// "Your account was locked after failed sign-ins": carries a raw reset token for the link.
    case accountLocked(token: String)
    /// "You are invited to sign up": carries the raw invitation token for the link.
    case invitation(token: String)
    /// "Confirm the address you added to your account": carries the raw confirmation token for the link.
    case addressVerification(token: String)
    /// To the old primary address: "your primary address is now …" (the new one).
    case primaryAddressChanged(newAddress: String)
    /// To the primary address: "{address} was confirmed as an address of your account" (it can sign in and get reset links).
    case addressAdded(address: String)
    /// To the primary address: "{address} was removed from your account".
    case addressRemoved(address: String)
    /// To the primary address of a deleted account: "your account was deleted".
    case accountDeleted
    /// To the primary address: "a {provider} account was linked to your account" (provider: its display id).
    case identityLinked(provider: String)
    /// To the primary address: "{provider} was unlinked from your account".
    case identityUnlinked(provider: String)
    /// "A device asks to use this address": the raw approval token for the link, and the asking device (user agent and
    /// address as it sent them) so the person can recognise it.
    case residence(token: String, userAgent: String, remoteAddress: String)
    /// To the primary address: "one-time codes were turned on for your account".
    case secondFactorEnabled
    /// To the primary address: "one-time codes were turned off for your account" (by the person or the operator).
    case secondFactorRemoved
    /// To the primary address: "a passkey was added to your account" (its name).
    case passkeyAdded(name: String)
    /// To the primary address: "a passkey was removed from your account" (its name).
    case passkeyRemoved(name: String)

    /// "Your password was changed" for an account without linked providers.
    public static var passwordChanged: MailKind { .passwordChanged(providers: []) }

    /// The name stored in the queue and used for throttling.
    public var name: String {
        switch self {
        case .confirmation: "confirmation"
        case .signUpAttempt: "sign_up_attempt"
        case .passwordReset: "password_reset"
        case .passwordChanged: "password_changed"
        case .accountLocked: "account_locked"
        case .invitation: "invitation"
        case .addressVerification: "address_verification"
        case .primaryAddressChanged: "primary_address_changed"
        case .addressAdded: "address_added"
        case .addressRemoved: "address_removed"
        case .accountDeleted: "account_deleted"
        case .identityLinked: "identity_linked"
        case .identityUnlinked: "identity_unlinked"
        case .residence: "residence"
        case .secondFactorEnabled: "second_factor_enabled"
        case .secondFactorRemoved: "second_factor_removed"
        case .passkeyAdded: "passkey_added"
        case .passkeyRemoved: "passkey_removed"
        }
    }
}

/// Words a mail of some kind for an address (implemented with the templates in WebFront), in `language` (the preference
/// of the account holding the address; nil: the site's default).
public protocol MailComposer: Sendable {
    func compose(_ kind: MailKind, to address: String, language: String?) throws -> MailMessage
}

/// One queued mail, as `frontdoor mail list` shows it.
public struct QueuedMail: Sendable, Equatable {
    public var id: Int64
    public var kind: String
    public var recipient: String
    public var subject: String
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var sentAt: Date?
}

/// The queue: `enqueue` inside a write, `deliverDue` from the background sender or `frontdoor mail retry`.
public struct MailQueue: Sendable {
    let database: AppDatabase
    let composer: any MailComposer
    let transport: any MailTransport
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// Delay before the first retry; doubled per failure, at most an hour.
    public var retryBase: TimeInterval = 30
    /// Window in which a second mail of one kind to one address is not sent.
    public var throttle: TimeInterval = 60

    public init(database: AppDatabase, composer: any MailComposer, transport: any MailTransport,
                clock: any Clock, random: any RandomSource, logger: Logger) {
        self.database = database
        self.composer = composer
        self.transport = transport
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    /// True when a mail of `kind` went to `address` within the throttle window. Check-then-enqueue: checks for the same
    /// kind and address take turns until the transaction ends, so two requests at once send one mail.
    func isThrottled(_ kind: MailKind, to address: String, in tx: Transaction) throws -> Bool {
        try tx.serialize(on: "mail.\(kind.name).\(address.lowercased())")
        return try tx.isMailThrottled(kind: kind.name, recipientKey: address.lowercased(), since: clock.now().timeIntervalSince1970 - throttle)
    }

    /// Words and queues a mail in the caller's transaction, in the preferred language of the account holding `address`,
    /// else in `fallback` (the language of the request that caused it, or of an account about to be deleted), else in
    /// the site's default; it is sent after the transaction commits.
    func enqueue(_ kind: MailKind, to address: String, fallback: String? = nil, in tx: Transaction) throws {
        let preferred = try tx.mailLanguage(ofHolder: EmailFormat.normalized(address)) ?? fallback
        let message = try composer.compose(kind, to: address, language: preferred)
        let id = random.bytes(16).map { String(format: "%02x", $0) }.joined()
        let domain = message.from.split(separator: "@").last.map { String($0.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) } ?? "localhost"
        let text = try message.rfc5322(date: clock.now(), id: id, domain: domain.isEmpty ? "localhost" : domain)
        let now = clock.now().timeIntervalSince1970
        try tx.enqueueMail(kind: kind.name, sender: Self.bareAddress(message.from), recipient: address, subject: message.subject,
                           message: text, messageId: id, now: now)
    }

    /// Sends every due message (at most `limit`); failures are rescheduled with backoff. Returns (sent, failed).
    @discardableResult
    public func deliverDue(limit: Int = 50) throws -> (sent: Int, failed: Int) {
        let now = clock.now().timeIntervalSince1970
        let due = try database.read { tx in try tx.dueMail(now: now, limit: limit) }
        var sent = 0, failed = 0
        for mail in due {
            let id = mail.id, attempts = mail.attempts
            // The lease runs from the claim, not from the start of the pass: a pass through slow SMTP answers can
            // outlast it, and a lease already over when taken would let another host's sender claim the mail too.
            guard try claim(id, now: clock.now().timeIntervalSince1970) else { continue }
            // Delivered outside any transaction (a write body may run again; SMTP must not).
            do {
                try transport.deliver(mail.message, from: mail.sender, to: mail.recipient, id: mail.messageId)
                let sentAt = clock.now().timeIntervalSince1970
                try database.write { tx in try tx.markMailSent(id: id, attempts: attempts + 1, sentAt: sentAt) }
                sent += 1
            } catch {
                let delay = min(retryBase * pow(2, Double(attempts)), 3600)
                let nextAttemptAt = clock.now().timeIntervalSince1970 + delay
                try database.write { tx in try tx.markMailFailed(id: id, attempts: attempts + 1, nextAttemptAt: nextAttemptAt, error: "\(error)") }
                logger.warning("mail delivery failed; will retry", metadata: ["mail": "\(id)", "retry_in": "\(Int(delay))s", "error": "\(error)"])
                failed += 1
            }
        }
        return (sent, failed)
    }

    /// How long a claimed message is left to its sender before another may try (covers a sender that died mid-send).
    public static let claimLease: TimeInterval = 300

    /// Takes a due message for this sender by pushing its next attempt past the lease; false when another
    /// sender (the server's thread, `frontdoor mail retry`, another host) took it first. So a message is never sent twice
    /// at once: the conditional UPDATE's changed-row count decides (`Transaction.claimMail`).
    private func claim(_ id: Int64, now: Double) throws -> Bool {
        try database.write { tx in try tx.claimMail(id: id, now: now, until: now + Self.claimLease) }
    }

    /// Makes every message waiting for a retry due now (`frontdoor mail retry`); one another sender (a server's thread,
    /// on any host) is sending at this moment stays its sender's, so it is never sent twice.
    public func makeAllDue() throws {
        let now = clock.now().timeIntervalSince1970
        try database.write { tx in try tx.makeAllMailDue(now: now) }
    }

    /// The newest `limit` messages, unsent first.
    public func list(limit: Int = 100) throws -> [QueuedMail] {
        try database.read { tx in try tx.queuedMail(limit: limit) }
    }

    /// How many messages wait to be sent (for metrics): counted in the `mailQueue_due` index, not the table.
    public func pendingCount() throws -> Int {
        try database.read { tx in try tx.pendingMailCount() }
    }

    /// `Name <a@b.c>` → `a@b.c`.
    static func bareAddress(_ address: String) -> String { MailEncoding.mailbox(address).address }
}
