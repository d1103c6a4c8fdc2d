// MailFuzz.swift: the properties mail-fuzz checks on MailMessage.rfc5322. The input is from, to, subject, text and
// html separated by NUL bytes, then 8 bytes of date. Either the message is refused with headerInjection (and an
// address or the subject did hold a line break), or its header block is exactly the 7 expected lines, the whole
// message has no bare CR or LF, and both bodies are in it, line ends made CRLF.
import AccountCore
import Foundation
import FuzzSupport

enum MailFuzz {
    static let id = "0123456789abcdef", domain = "mail.example.com"

    static func run(_ bytes: [UInt8]) {
        let parts = Fuzz.parts(bytes, separator: 0, count: 6)
        let message = MailMessage(from: Fuzz.text(parts[0]), to: Fuzz.text(parts[1]), subject: Fuzz.text(parts[2]),
                                  text: Fuzz.text(parts[3]), html: Fuzz.text(parts[4]))
        let seconds = parts[5].prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 253_402_300_800   // up to 9999-12-31
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let breaks = [message.from, message.to, message.subject].contains { $0.unicodeScalars.contains(where: isLineBreak) }
        let mail: String
        do {
            mail = try message.rfc5322(date: date, id: id, domain: domain)
        } catch let error as MailError {
            require(breaks, "refused without a line break: \(error)")
            require(["From", "To", "Subject"].contains { error == .headerInjection($0) }, "refused with \(error)")
            return
        } catch {
            require(false, "threw \(error)")
            return
        }
        require(!breaks, "a header value with a line break was accepted")
        let bytes = Array(mail.utf8)
        for (i, byte) in bytes.enumerated() {
            if byte == 0x0D { require(i + 1 < bytes.count && bytes[i + 1] == 0x0A, "a bare CR at \(i)") }
            if byte == 0x0A { require(i > 0 && bytes[i - 1] == 0x0D, "a bare LF at \(i)") }
        }
        guard let end = mail.range(of: "\r\n\r\n") else { return require(false, "no empty line after the headers") }
        let headers = mail[..<end.lowerBound].components(separatedBy: "\r\n")
        let boundary = "=_frontdoor_\(id)"
        require(headers.count == 7, "\(headers.count) header lines")
        require(headers[0] == "From: " + message.from && headers[1] == "To: " + message.to, "address headers")
        require(headers[2] == "Subject: " + subjectWord(message.subject), "subject header \(headers[2].debugDescription)")
        require(headers[3].wholeMatch(of: /Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d \+0000/) != nil,
                "date header \(headers[3].debugDescription)")
        require(headers[4] == "Message-ID: <\(id)@\(domain)>" && headers[5] == "MIME-Version: 1.0"
                && headers[6] == "Content-Type: multipart/alternative; boundary=\"\(boundary)\"", "fixed headers")
        let body = String(mail[end.upperBound...])
        let expected = ["--\(boundary)", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "", crlf(message.text),
                        "--\(boundary)", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: 8bit", "", crlf(message.html),
                        "--\(boundary)--", ""].joined(separator: "\r\n")
        require(Array(body.utf8) == Array(expected.utf8), "the bodies did not survive")
    }

    /// Any line break a header value must not hold: CR, LF, VT, FF, NEL, LS, PS.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || [0x85, 0x2028, 0x2029].contains(scalar.value)
    }

    /// The subject as written: ASCII as is, else one RFC 2047 B word that decodes back to it.
    static func subjectWord(_ subject: String) -> String {
        subject.utf8.allSatisfy { $0 < 0x80 } ? subject : "=?UTF-8?B?" + Data(subject.utf8).base64EncodedString() + "?="
    }

    /// CRLF line ends, worked out on bytes: CR LF, lone CR and lone LF all become CR LF.
    static func crlf(_ text: String) -> String {
        var out: [UInt8] = [], bytes = Array(text.utf8), i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D || bytes[i] == 0x0A {
                out += [0x0D, 0x0A]
                if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
            } else {
                out.append(bytes[i])
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) { Fuzz.require(condition, "mail-fuzz", message()) }
}
