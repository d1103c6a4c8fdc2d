// MailMessage.swift: one mail as RFC 5322 text any mail server takes: multipart/alternative (text + HTML), 7-bit
// ASCII (encoded words in headers, quoted-printable bodies; see MailEncoding), lines of at most 78 characters, no
// header injection.
import Foundation

/// Why a mail could not be built or sent. Never contains a password or token.
public struct MailError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// A header value held CR or LF: refused, so nobody can add headers or recipients.
    public static func headerInjection(_ header: String) -> MailError { MailError("mail: line break in the \(header) header") }

    /// An address header's address is missing, too long or holds a character no address has (see `MailMessage.isUsableAddress`).
    public static func badAddress(_ header: String) -> MailError { MailError("mail: no usable address in the \(header) header") }
}

/// A mail ready to be queued: addresses, subject and both bodies.
public struct MailMessage: Sendable, Equatable {
    public var from: String
    public var to: String
    public var subject: String
    public var text: String
    public var html: String

    public init(from: String, to: String, subject: String, text: String, html: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
    }

    /// The message as RFC 5322 text with CRLF line ends, 7-bit ASCII but for a non-ASCII address (written as it is).
    ///
    /// - Parameters:
    ///   - date: the Date header's time.
    ///   - id: unique part of Message-ID and the MIME boundary (random hex).
    ///   - domain: the Message-ID's domain.
    /// - Throws: `MailError.headerInjection` when an address or the subject holds a line break, `MailError.badAddress`
    ///   when the address of From or To is not usable.
    public func rfc5322(date: Date, id: String, domain: String) throws -> String {
        for (name, value) in [("From", from), ("To", to), ("Subject", subject)] where value.contains(where: \.isNewline) {
            throw MailError.headerInjection(name)
        }
        for (name, value) in [("From", from), ("To", to)] where !Self.isUsableAddress(MailEncoding.mailbox(value).address) {
            throw MailError.badAddress(name)
        }
        // "=_" never occurs in quoted-printable text, so the boundary cannot occur in a part.
        let boundary = "=_frontdoor_\(id)"
        let headers = [
            MailEncoding.mailboxHeader("From", from),
            MailEncoding.mailboxHeader("To", to),
            MailEncoding.unstructuredHeader("Subject", subject),
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(id)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",   // folded: a 32-digit id makes it 91 long
        ]
        let parts = [
            "--\(boundary)", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", "",
            MailEncoding.quotedPrintable(text),
            "--\(boundary)", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", "",
            MailEncoding.quotedPrintable(html),
            "--\(boundary)--", "",
        ]
        return (headers + [""] + parts).joined(separator: "\r\n")
    }

    /// The longest address written, per RFC 5321's path limit.
    public static let maximumAddressLength = 254

    /// True when `address` can be written as it is in an address header: not empty, at most 254 octets, and without
    /// white space, control characters, commas or angle brackets.
    public static func isUsableAddress(_ address: String) -> Bool {
        !address.isEmpty && address.utf8.count <= maximumAddressLength && !address.unicodeScalars.contains { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control || ",<>".unicodeScalars.contains(scalar)
        }
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
