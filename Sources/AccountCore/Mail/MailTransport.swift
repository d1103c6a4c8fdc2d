// MailTransport.swift: where queued mail goes: an outbox folder of .eml files, or an SMTP server through libcurl.
//
// Options (config section `mail`):
//   transport  outbox | smtp
//   outbox     folder for .eml files
//   smtp_url   smtp://host:587 (STARTTLS when smtp_starttls) or smtps://host:465 (implicit TLS)
//   smtp_starttls, smtp_username, smtp_password, timeout
//   smtp_ca_file  PEM CA certificates trusted for the SMTP server instead of the system store (see SMTPTransport)
import Foundation

/// Delivers one finished RFC 5322 message.
public protocol MailTransport: Sendable {
    /// Hands `message` (CRLF text) for `recipient` on; throws `MailError` when it could not.
    func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws
}

/// Writes each message atomically as `<id>.eml` in a folder, for development and for operators without SMTP.
public struct OutboxTransport: MailTransport {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    public func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws {
        let directory = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("\(id).eml")
            try Data(message.utf8).write(to: file, options: .atomic)
        } catch {
            throw MailError("mail: cannot write to outbox \(folder): \(error.localizedDescription)")
        }
    }
}
