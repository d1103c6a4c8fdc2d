// MailSender.swift: the background thread that delivers queued mail, so web requests never wait on SMTP.
import Foundation
import Logging

/// Delivers due mail every `interval` seconds on its own thread until the process ends.
public final class MailSender: Sendable {
    private let queue: MailQueue
    private let interval: TimeInterval
    private let logger: Logger

    public init(queue: MailQueue, interval: TimeInterval, logger: Logger) {
        self.queue = queue
        self.interval = interval
        self.logger = logger
    }

    /// Starts the sending thread.
    public func start() {
        PeriodicThread.start(name: "frontdoor-mail", every: interval) { [self] in deliverOnce() }
    }

    /// One delivery pass; errors are logged, never thrown (the queue keeps the mail).
    public func deliverOnce() {
        do {
            let result = try queue.deliverDue()
            if result.sent > 0 { logger.info("mail delivered", metadata: ["count": "\(result.sent)"]) }
        } catch {
            logger.error("mail queue pass failed", metadata: ["error": "\(error)"])
        }
    }
}
