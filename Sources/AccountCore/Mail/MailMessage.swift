// MailMessage.swift: one mail as RFC 5322 text: multipart/alternative (text + HTML), UTF-8, no header injection.
import Foundation

/// Why a mail could not be built or sent. Never contains a password or token.
public struct MailError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// A header value held CR or LF: refused, so nobody can add headers or recipients.
    public static func headerInjection(_ header: String) -> MailError { MailError("mail: line break in the \(header) header") }
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

    /// The message as RFC 5322 text with CRLF line ends.
    ///
    /// - Parameters:
    ///   - date: the Date header's time.
    ///   - id: unique part of Message-ID and the MIME boundary (random hex).
    /// - Throws: `MailError.headerInjection` when an address or the subject holds CR or LF.
    public func rfc5322(date: Date, id: String, domain: String) throws -> String {
        for (name, value) in [("From", from), ("To", to), ("Subject", subject)] where value.contains(where: \.isNewline) {
            throw MailError.headerInjection(name)
        }
        let boundary = "=_frontdoor_\(id)"
        let headers = [
            "From: \(from)",
            "To: \(to)",
            "Subject: \(Self.encodedWord(subject))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(id)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
        ]
        let parts = [
            "--\(boundary)", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "", Self.normalized(text),
            "--\(boundary)", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: 8bit", "", Self.normalized(html),
            "--\(boundary)--", "",
        ]
        return (headers + [""] + parts).joined(separator: "\r\n")
    }

    /// Bare LF and bare CR → CRLF; lines starting with "." are left to the transport (curl dot-stuffs).
    /// On UTF-8 bytes: Foundation's replacingOccurrences matches whole composed character sequences, and to it a line
    /// break followed by a combining mark ("\n\u{0305}") is one, so it was left bare (found by fuzz/ mail-fuzz).
    static func normalized(_ body: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(body.utf8.count + body.utf8.count / 16)
        var afterCR = false
        for byte in body.utf8 {
            switch byte {
            case 0x0D: out += [0x0D, 0x0A]
            case 0x0A where afterCR: break   // the LF of a CRLF, already written
            case 0x0A: out += [0x0D, 0x0A]
            default: out.append(byte)
            }
            afterCR = byte == 0x0D
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ASCII stays as is; anything else becomes an RFC 2047 encoded word.
    static func encodedWord(_ text: String) -> String {
        guard !text.allSatisfy({ $0.isASCII }) else { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
