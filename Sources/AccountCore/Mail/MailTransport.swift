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

/// Writes each message atomically as `<id>.eml` in a folder, for development and for operators without SMTP. The
/// messages carry live reset, confirmation and invitation links: each file is 0600 and a folder made here 0700,
/// whatever the umask (systemd's StateDirectoryMode covers the packaged layout only, not CGI or `make run`).
public struct OutboxTransport: MailTransport {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    public func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try Self.writePrivately(Array(message.utf8), to: folder + "/\(id).eml")
        } catch {
            throw MailError("mail: cannot write to outbox \(folder): \(error)")
        }
    }

    /// Writes `bytes` to a fresh 0600 temporary file beside `path`, then renames it into place (replacing a retried one).
    private static func writePrivately(_ bytes: [UInt8], to path: String) throws {
        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = mkstemp(&template)   // 0600, O_EXCL
        guard fd >= 0 else { throw MailError(String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { failure = String(cString: strerror(errno)); break }
            written += count
        }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw MailError(failure)
        }
    }
}
