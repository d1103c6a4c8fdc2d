import Foundation
import MailTestKit
import Testing
@testable import AccountCore

struct MailEncodingTests {
    // MARK: - Quoted-printable

    @Test(arguments: [
        ("Café = 3 €\n", "Caf=C3=A9 =3D 3 =E2=82=AC\r\n"),
        ("a \nb\t", "a=20\r\nb=09"),                                   // white space at a line's end is encoded
        ("a\rb\nc\r\nd\n\re", "a\r\nb\r\nc\r\nd\r\n\r\ne"),            // every line end is one CRLF
        ("x\n\u{0305}", "x\r\n=CC=85"),                                 // a combining mark after LF (fuzz/regressions/mail-fuzz)
        (".\n..\nFrom me\nFrom\nA.From x", "=2E\r\n=2E.\r\n=46rom me\r\nFrom\r\nA.From x"),   // RFC 2049 3
        ("tab\there \u{7F}\u{01}", "tab\there =7F=01"),
        ("", ""),
    ])
    func quotedPrintableOfFixedInputs(input: String, expected: String) {
        #expect(Array(MailEncoding.quotedPrintable(input).utf8) == Array(expected.utf8))
    }

    @Test func longLinesGetSoftBreaksThatNeverSplitAnEscape() {
        let a = { (count: Int) in String(repeating: "a", count: count) }
        #expect(MailEncoding.quotedPrintable(a(76)) == a(76), "76 characters fit one line")
        #expect(MailEncoding.quotedPrintable(a(77)) == a(75) + "=\r\n" + a(2))
        #expect(MailEncoding.quotedPrintable(a(160)) == a(75) + "=\r\n" + a(75) + "=\r\n" + a(10))
        #expect(MailEncoding.quotedPrintable(a(74) + "é") == a(74) + "=\r\n=C3=A9")
        #expect(MailEncoding.quotedPrintable(a(75) + " ") == a(75) + "=\r\n=20", "the last space is encoded, on the next line")
        #expect(MailEncoding.quotedPrintable(a(75) + ".b") == a(75) + "=\r\n=2Eb", "a dot starting a written line")
    }

    /// Texts the app sends (French, German, links) and awkward ones, each read back by the tests' own decoder.
    static let bodies = [
        "Bonjour,\n\nVeuillez confirmer votre adresse e-mail en suivant ce lien\u{202F}:\n\nhttp://127.0.0.1:8080/account/confirm?token=" + String(repeating: "Ab9_-", count: 9) + "\n\n-- \nFrontdoor\n",
        "Jemand hat angefordert, das Passwort Ihres Kontos zurückzusetzen. Öffnen Sie den Link, um ein neues Passwort zu wählen.",
        "<p style=\"font-size:14px;color:#4d5566;word-break:break-all\">https://example.com/account/password/edit?token=abc&amp;x=1</p>",
        String(repeating: "€", count: 60) + "\r\n" + String(repeating: "🚪 ", count: 40) + "\n\n\r\r",
        String(repeating: " ", count: 100) + "\t\n=\n=?UTF-8?B?x?=\n.",
    ]

    @Test(arguments: bodies)
    func quotedPrintableRoundTripsInShortASCIILines(body: String) throws {
        let encoded = MailEncoding.quotedPrintable(body)
        #expect(try MailDecoding.quotedPrintable(encoded) == Array(Self.crlf(body).utf8))
        for line in encoded.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76, "\(line.debugDescription)")
            #expect(line.utf8.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 }, "\(line.debugDescription)")
            #expect(!line.hasSuffix(" ") && !line.hasSuffix("\t"), "white space at the end of \(line.debugDescription)")
            #expect(!line.hasPrefix(".") && !line.hasPrefix("From "))
        }
        #expect(!encoded.replacingOccurrences(of: "\r\n", with: "").contains(where: { $0 == "\r" || $0 == "\n" }))
    }

    // MARK: - Headers

    @Test func plainASCIIHeadersStayAsTheyAre() {
        #expect(MailEncoding.unstructuredHeader("Subject", "Confirm your email address for Frontdoor")
                == "Subject: Confirm your email address for Frontdoor")
        #expect(MailEncoding.unstructuredHeader("Subject", "") == "Subject: ")
        #expect(MailEncoding.mailboxHeader("From", "Frontdoor <no-reply@example.com>") == "From: Frontdoor <no-reply@example.com>")
        #expect(MailEncoding.mailboxHeader("To", "ann@example.com") == "To: ann@example.com")
        #expect(MailEncoding.mailboxHeader("From", "Frontdoor, Inc. <no-reply@example.com>") == "From: \"Frontdoor, Inc.\" <no-reply@example.com>")
        #expect(MailEncoding.mailboxHeader("From", "\"Frontdoor\" <no-reply@example.com>") == "From: Frontdoor <no-reply@example.com>")
    }

    @Test func nonASCIIBecomesUTF8EncodedWords() {
        // Base64 of the UTF-8, checked with Python's email.header.decode_header.
        #expect(MailEncoding.unstructuredHeader("Subject", "Réinitialisez votre mot de passe")
                == "Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXogdm90cmUgbW90IGRlIHBhc3Nl?=")
        #expect(MailEncoding.mailboxHeader("From", "Zoë <no-reply@example.com>") == "From: =?UTF-8?B?Wm/Dqw==?= <no-reply@example.com>")
        #expect(MailEncoding.unstructuredHeader("Subject", "a =?x?= b").hasPrefix("Subject: =?UTF-8?B?"), "text that looks encoded is encoded")
    }

    static let subjects = [
        "Confirmez votre adresse e-mail pour Frontdoor",
        "Bestätigen Sie Ihre E-Mail-Adresse für Frontdoor – Ihr Konto wartet auf Sie, öffnen Sie den Link",
        "Sign in to Frontdoor on a device: a long ASCII subject that has to be folded before one of its spaces, twice over",
        String(repeating: "🚪", count: 40),
        String(repeating: "x", count: 90),
        "  leading, trailing and  doubled  spaces  ",
        "tab\there, bell \u{07}, zero-width \u{200B}",
    ]

    @Test(arguments: subjects)
    func subjectsFoldIntoShortASCIILinesAndDecodeBack(subject: String) throws {
        let header = MailEncoding.unstructuredHeader("Subject", subject)
        try Self.checkLines(header)
        let value = try #require(header.split(separator: ":", maxSplits: 1).last).dropFirst()
        #expect(try MailDecoding.unstructured(String(value).replacingOccurrences(of: "\r\n", with: "")) == subject)
    }

    static let mailboxes: [(from: String, name: String, address: String)] = [
        ("Frontdoor <no-reply@example.com>", "Frontdoor", "no-reply@example.com"),
        ("Équipe Frontdoor <no-reply@example.com>", "Équipe Frontdoor", "no-reply@example.com"),
        ("\"a \\\"quoted\\\" \\\\ name\" <x@example.com>", "a \"quoted\" \\ name", "x@example.com"),
        ("Der Zugangsdienst für alle Konten der Müller & Söhne GmbH, Niederlassung Zürich <no-reply@example.com>",
         "Der Zugangsdienst für alle Konten der Müller & Söhne GmbH, Niederlassung Zürich", "no-reply@example.com"),
        ("A very long but plain ASCII display name that still has to fold somewhere <no-reply@example.com>",
         "A very long but plain ASCII display name that still has to fold somewhere", "no-reply@example.com"),
        ("Zoë <" + String(repeating: "a", count: 60) + "@example.com>", "Zoë", String(repeating: "a", count: 60) + "@example.com"),
        ("ann@example.com", "", "ann@example.com"),
    ]

    @Test(arguments: mailboxes)
    func mailboxesKeepTheirAddressAndDecodeToTheirDisplayName(from: String, name: String, address: String) throws {
        #expect(MailEncoding.mailbox(from).displayName == name && MailEncoding.mailbox(from).address == address)
        let header = MailEncoding.mailboxHeader("From", from)
        try Self.checkLines(header)
        let value = String(header.dropFirst("From: ".count)).replacingOccurrences(of: "\r\n", with: "")
        let decoded = try MailDecoding.mailbox(value)
        #expect(decoded.displayName == name && decoded.address == address, "\(header.debugDescription)")
    }

    @Test func theAddressIsNeverFoldedNorEncoded() {
        let address = String(repeating: "b", count: 200) + "@example.com"
        let header = MailEncoding.mailboxHeader("To", "Zoë <\(address)>")
        #expect(header == "To: =?UTF-8?B?Wm/Dqw==?=\r\n <\(address)>")
        #expect(MailEncoding.mailboxHeader("To", "zoë@exämple.com") == "To: zoë@exämple.com", "an international address as it is")
    }

    /// Every line at most 78 characters of printable ASCII, continuation lines starting with a space, every encoded word
    /// at most 75 characters.
    static func checkLines(_ header: String) throws {
        for (index, line) in header.components(separatedBy: "\r\n").enumerated() {
            #expect(line.utf8.count <= 78, "\(line.debugDescription)")
            #expect(line.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "\(line.debugDescription)")
            #expect(index == 0 || (line.hasPrefix(" ") && line.contains { $0 != " " }), "\(line.debugDescription)")
            for word in line.matches(of: /=\?UTF-8\?B\?[^?]*\?=/) { #expect(word.output.count <= 75) }
        }
    }

    /// CRLF line ends, worked out on bytes.
    static func crlf(_ text: String) -> String {
        var out: [UInt8] = [], bytes = Array(text.utf8), index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D || bytes[index] == 0x0A {
                out += [0x0D, 0x0A]
                if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                out.append(bytes[index])
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
