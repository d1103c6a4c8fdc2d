import Foundation
import MailTestKit
import Testing
@testable import AccountCore

struct MailMessageTests {
    let message = MailMessage(from: "Frontdoor <no-reply@example.com>", to: "ann@example.com", subject: "Confirm your address",
                              text: "Hello\nfollow https://x.example/confirm?token=abc\n", html: "<p>Hello</p>")

    @Test func isMultipartAlternativeWithCRLFLineEnds() throws {
        let text = try message.rfc5322(date: Date(timeIntervalSince1970: 0), id: "0123abcd", domain: "example.com")
        #expect(text.hasPrefix("From: Frontdoor <no-reply@example.com>\r\nTo: ann@example.com\r\nSubject: Confirm your address\r\n"))
        #expect(text.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"))
        #expect(text.contains("Message-ID: <0123abcd@example.com>\r\n"))
        #expect(text.contains("Content-Type: multipart/alternative;\r\n boundary=\"=_frontdoor_0123abcd\"\r\n"))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
                              + "Hello\r\nfollow https://x.example/confirm?token=3Dabc\r\n"))
        #expect(text.contains("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>Hello</p>\r\n"))
        #expect(text.hasSuffix("--=_frontdoor_0123abcd--\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
    }

    @Test(arguments: ["evil@example.com\r\nBcc: x@example.com", "a@b.c\nBcc: x", "a@b.c\r"])
    func aLineBreakInAnyHeaderIsRefused(value: String) {
        for field in ["from", "to", "subject"] {
            var bad = message
            switch field {
            case "from": bad.from = value
            case "to": bad.to = value
            default: bad.subject = value
            }
            #expect(throws: MailError.self) { try bad.rfc5322(date: Date(), id: "1", domain: "example.com") }
        }
    }

    @Test func aNonASCIISubjectIsAnEncodedWord() throws {
        var accented = message
        accented.subject = "Confirmez votre adresse é"
        let text = try accented.rfc5322(date: Date(), id: "1", domain: "example.com")
        #expect(text.contains("Subject: =?UTF-8?B?" + Data("Confirmez votre adresse é".utf8).base64EncodedString() + "?=\r\n"))
    }

    /// A French mail from a non-ASCII display name: read back by the tests' own reader, every line short and ASCII.
    @Test func aFrenchMailIsASCIIWithShortLinesAndReadsBack() throws {
        let french = MailMessage(
            from: "Équipe d’accès Frontdoor <no-reply@example.com>", to: "Zoë Müller <zoe@example.com>",
            subject: "Réinitialisez votre mot de passe pour Frontdoor : le lien est valable une heure, ne tardez pas",
            text: "Bonjour,\n\nQuelqu’un a demandé à réinitialiser le mot de passe de votre compte. Suivez ce lien\u{202F}:\n\n"
                + "http://127.0.0.1:8080/account/password/edit?token=" + String(repeating: "aZ09_-", count: 8) + "\n\n-- \nFrontdoor\n",
            html: "<p style=\"font-size:14px;color:#4d5566;word-break:break-all\">Réinitialiser mon mot de passe — « maintenant »</p>")
        let raw = try french.rfc5322(date: Date(timeIntervalSince1970: 0), id: String(repeating: "0123abcd", count: 4), domain: "example.com")
        for line in raw.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 78 && line.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "\(line.debugDescription)")
        }
        let mail = try ReadMail(raw)
        let from = try mail.mailbox("From"), to = try mail.mailbox("To")
        #expect(from.displayName == "Équipe d’accès Frontdoor" && from.address == "no-reply@example.com")
        #expect(to.displayName == "Zoë Müller" && to.address == "zoe@example.com")
        #expect(try mail.subject == french.subject)
        #expect(mail.fields.map(\.name) == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"])
        #expect(mail.body("text/plain") == french.text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(mail.body("text/html") == french.html)
    }

    @Test(arguments: ["", "two words@example.com", "Name <>", "a@b.c, evil@example.com", "bell\u{07}@example.com",
                      String(repeating: "a", count: 250) + "@b.cd"])
    func anUnusableAddressIsRefused(address: String) {
        for field in ["From", "To"] {
            var bad = message
            if field == "From" { bad.from = address } else { bad.to = address }
            #expect(throws: MailError.badAddress(field)) { try bad.rfc5322(date: Date(), id: "1", domain: "example.com") }
        }
    }

    /// Found by fuzz/ mail-fuzz (fuzz/regressions/mail-fuzz): a CR or LF followed by a combining mark is one composed
    /// character sequence to Foundation's replacingOccurrences, and stayed a bare line break in the message.
    @Test(arguments: ["line\n\u{0305}one", "line\r\u{0305}one", "line\r\n\u{0305}one", "a\n\n\u{0301}\r\r\n.\n\u{0301}"])
    func everyLineBreakOfTheBodiesBecomesCRLF(body: String) throws {
        var combining = message
        combining.text = body
        combining.html = body
        let bytes = Array(try combining.rfc5322(date: Date(), id: "1", domain: "example.com").utf8)
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0D { #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0A, "bare CR at \(index)") }
            if byte == 0x0A { #expect(index > 0 && bytes[index - 1] == 0x0D, "bare LF at \(index)") }
        }
    }
}
