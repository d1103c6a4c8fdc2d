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
}
