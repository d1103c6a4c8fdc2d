// CGIRequest.swift: one plain CGI request (`frontdoor serve` started by a web server's mod_cgi): answer it, then a
// little of the background work, within a bound.
//
// Options: none of its own; `CGIRequest.afterAnswerMails` and `afterAnswerSeconds` bound the work after answering.
// Signals: until the answer is whole, SIGTERM ends the process (a web server that gave up on the request, because its
// client went away, must not leave it running: mod_cgi has no cap on processes). The answer is written to a private
// buffer first; only once it is complete is SIGTERM ignored and the answer handed over, so a server that sends SIGTERM
// the moment it has the whole answer (lighttpd does) no longer cuts off a mail claimed mid-send. After answering,
// stdout goes to /dev/null (a server that reads until the end finishes the response now), then at most
// `afterAnswerMails` queued mails are sent and one batch of old rows pruned, under an alarm of `afterAnswerSeconds`:
// a blackholed SMTP server cannot keep the process for minutes. A mail cut off by the alarm stays claimed for
// MailQueue.claimLease and is then sent by the next request, `frontdoor mail retry` or a FastCGI host.
import AccountCore
import FastCGI
import Foundation
import WebFront

enum CGIRequest {
    /// Queued mails one request's process sends after answering; the rest wait for the next requests.
    static let afterAnswerMails = 2
    /// The longest the work after answering may run before the process ends.
    static let afterAnswerSeconds: UInt32 = 10

    static func serve(_ server: Server, environment: [String: String], app: Frontdoor) throws {
        if let buffer = AnswerBuffer() {
            try server.serveCGI(environment: environment, output: buffer.descriptor)
            signal(SIGTERM, SIG_IGN)
            buffer.copy(to: STDOUT_FILENO)
        } else {
            // No temporary file (a read-only or full temp folder): answer directly, and ignore SIGTERM only after.
            try server.serveCGI(environment: environment)
            signal(SIGTERM, SIG_IGN)
        }
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 { dup2(null, STDOUT_FILENO); close(null) }
        alarm(afterAnswerSeconds)   // SIGALRM's default action ends the process; libcurl uses no signals (NOSIGNAL)
        do {
            let result = try app.services.mail.deliverDue(limit: afterAnswerMails)
            if result.sent > 0 { app.site.logger.info("mail delivered", metadata: ["count": "\(result.sent)"]) }
        } catch {
            app.site.logger.error("mail queue pass failed", metadata: ["error": "\(error)"])
        }
        Pruner(retention: app.services.retention, logger: app.site.logger).pruneOnce(maxBatches: 1)
        alarm(0)
    }
}

/// An unlinked temporary file the answer is written to before it goes out whole.
private final class AnswerBuffer {
    let descriptor: Int32

    /// Nil when no temporary file can be made.
    init?() {
        var template = Array((NSTemporaryDirectory() + "/frontdoor-cgi-XXXXXX").utf8CString)
        descriptor = mkstemp(&template)   // 0600, O_EXCL
        guard descriptor >= 0 else { return nil }
        unlink(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit { close(descriptor) }

    /// Writes everything in the buffer to `output` (stops quietly when the web server has gone away).
    func copy(to output: Int32) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return }
            offset += off_t(got)
            var written = 0
            while written < got {
                let n = chunk.withUnsafeBytes { write(output, $0.baseAddress! + written, got - written) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                written += n
            }
        }
    }
}
