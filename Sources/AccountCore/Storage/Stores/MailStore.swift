// MailStore.swift: the `mailQueue` table: enqueue, the throttle check, the recipient's language, claiming due mail,
// marking it sent or failed, the listing and depth of `frontdoor mail` and /metrics. (Pruning sent mail is Retention's.)
//
// A due message goes to one sender at a time: `claimMail` is a conditional UPDATE (still unsent and still due) whose
// changed-row count decides, so of two senders (the server's thread, `frontdoor mail retry`, another host) one wins.
import Foundation

/// A due message as the sender reads it.
struct DueMail: Sendable, Equatable {
    var id: Int64
    var sender: String
    var recipient: String
    var message: String
    var messageId: String
    var attempts: Int
}

extension Transaction {
    /// Whether a mail of kind `kind` went to `recipientKey` (the lower-cased address) after `since`.
    func isMailThrottled(kind: String, recipientKey: String, since: Double) throws -> Bool {
        try value(Bool.self, """
            SELECT EXISTS (SELECT 1 FROM mailQueue WHERE recipientKey = ? AND kind = ? AND createdAt > ?) AS throttled
            """, [recipientKey, kind, since]) ?? false
    }

    /// The preferred language of the account holding the address whose normalized form is `normalizedAddress`; nil when
    /// no account holds it or it has none.
    func mailLanguage(ofHolder normalizedAddress: String) throws -> String? {
        try value(String.self, """
            SELECT a.language AS language FROM emailAddress e JOIN account a ON a.id = e.accountId WHERE e.normalizedAddress = ?
            """, [normalizedAddress])
    }

    /// Queues a worded message, due at `now`.
    func enqueueMail(kind: String, sender: String, recipient: String, subject: String, message: String, messageId: String,
                     now: Double) throws {
        try execute("""
            INSERT INTO mailQueue (kind, sender, recipient, recipientKey, subject, message, messageId, createdAt, nextAttemptAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [kind, sender, recipient, recipient.lowercased(), subject, message, messageId, now, now])
    }

    /// At most `limit` unsent messages due at `now`, oldest first.
    func dueMail(now: Double, limit: Int) throws -> [DueMail] {
        try rows("""
            SELECT id, sender, recipient, message, messageId, attempts FROM mailQueue
            WHERE sentAt IS NULL AND nextAttemptAt <= ? ORDER BY id LIMIT ?
            """, [now, limit]).map { row in
            DueMail(id: try row.decode("id"), sender: try row.decode("sender"), recipient: try row.decode("recipient"),
                    message: try row.decode("message"), messageId: try row.decode("messageId"), attempts: try row.decode("attempts"))
        }
    }

    /// Takes the due message `id` for this sender by pushing its next attempt to `until` and clearing its last error
    /// (an unsent message due later without an error is one being sent: `makeAllMailDue` leaves it to its sender);
    /// false when another sender took it (or sent it) first. One winner: the UPDATE's condition is re-checked on the
    /// row it changes, and only a changed row counts.
    func claimMail(id: Int64, now: Double, until: Double) throws -> Bool {
        try execute("UPDATE mailQueue SET nextAttemptAt = ?, lastError = NULL WHERE id = ? AND sentAt IS NULL AND nextAttemptAt <= ?",
                    [until, id, now]) == 1
    }

    /// Records the message `id` as sent at `sentAt` after `attempts` attempts.
    func markMailSent(id: Int64, attempts: Int, sentAt: Double) throws {
        try execute("UPDATE mailQueue SET sentAt = ?, attempts = ?, lastError = NULL WHERE id = ?", [sentAt, attempts, id])
    }

    /// Records a failed attempt of the message `id`: its count, when to try again and why it failed.
    func markMailFailed(id: Int64, attempts: Int, nextAttemptAt: Double, error: String) throws {
        try execute("UPDATE mailQueue SET attempts = ?, nextAttemptAt = ?, lastError = ? WHERE id = ?", [attempts, nextAttemptAt, error, id])
    }

    /// Makes every message waiting for a retry (unsent, with an error) due at `now`. A message being sent (claimed: no
    /// error, due later) is left to its sender: made due, another sender would claim it and send it a second time.
    /// A message never tried is due already.
    func makeAllMailDue(now: Double) throws {
        try execute("UPDATE mailQueue SET nextAttemptAt = ? WHERE sentAt IS NULL AND lastError IS NOT NULL", [now])
    }

    /// The newest `limit` messages, unsent first.
    func queuedMail(limit: Int) throws -> [QueuedMail] {
        try rows("""
            SELECT id, kind, recipient, subject, createdAt, attempts, nextAttemptAt, lastError, sentAt FROM mailQueue
            ORDER BY sentAt IS NOT NULL, id DESC LIMIT ?
            """, [limit]).map { row in
            QueuedMail(id: try row.decode("id"), kind: try row.decode("kind"), recipient: try row.decode("recipient"),
                       subject: try row.decode("subject"), createdAt: try row.decode("createdAt"), attempts: try row.decode("attempts"),
                       nextAttemptAt: try row.decode("nextAttemptAt"), lastError: row["lastError"], sentAt: row["sentAt"])
        }
    }

    /// How many messages wait to be sent.
    func pendingMailCount() throws -> Int {
        try value(Int.self, MailQueue.pendingCountSQL) ?? 0
    }
}

extension MailQueue {
    /// `pendingMailCount`'s statement: counted in the `mailQueue_due` index, not the table (RetentionTests checks the
    /// plan on SQLite).
    static let pendingCountSQL = "SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NULL"
}
