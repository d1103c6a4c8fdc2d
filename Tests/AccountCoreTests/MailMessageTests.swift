import Foundation
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
        #expect(text.contains("Content-Type: multipart/alternative; boundary=\"=_frontdoor_0123abcd\"\r\n"))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nHello\r\nfollow https://x.example/confirm?token=abc\r\n"))
        #expect(text.contains("Content-Type: text/html; charset=utf-8"))
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

    @Test func normalizedMakesEveryLineEndCRLF() {
        #expect(Array(MailMessage.normalized("a\rb\nc\r\nd\n\re").utf8) == Array("a\r\nb\r\nc\r\nd\r\n\r\ne".utf8))
        #expect(Array(MailMessage.normalized("x\n\u{0305}").utf8) == [0x78, 0x0D, 0x0A, 0xCC, 0x85])
    }
}
