// MailFuzz.swift: the properties mail-fuzz checks on MailMessage.rfc5322. The input is from, to, subject, text and
// html separated by NUL bytes, then 8 bytes of date. Either the message is refused (headerInjection: an address or the
// subject did hold a line break; else badAddress: the From or To address is not usable), or:
//   - no bare CR or LF anywhere; header lines at most 78 characters of printable ASCII, continuation lines starting
//     with a space, except that an address is written as it is (a line holding only it may be longer, never beyond
//     998); encoded words at most 75 characters, each whole UTF-8;
//   - exactly the 7 expected fields, in order; From and To decode (by this file's own reader) to the display name and
//     address given, Subject to the subject given;
//   - both parts quoted-printable: lines at most 76 characters of printable ASCII or tab, no white space before a line
//     end, no line starting with "." or "From ", "=" only as =XX or a soft break; decoded, each is its body with CRLF
//     line ends.
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
        let from = MailEncoding.mailbox(message.from), to = MailEncoding.mailbox(message.to)
        let unusable = [("From", from.address), ("To", to.address)].first { !isUsable($0.1) }?.0
        let mail: String
        do {
            mail = try message.rfc5322(date: date, id: id, domain: domain)
        } catch let error as MailError {
            if breaks {
                require(["From", "To", "Subject"].contains { error == .headerInjection($0) }, "refused with \(error)")
            } else {
                require(unusable.map { error == .badAddress($0) } ?? false, "refused with \(error)")
            }
            return
        } catch {
            require(false, "threw \(error)")
            return
        }
        require(!breaks, "a header value with a line break was accepted")
        require(unusable == nil, "an unusable \(unusable ?? "") address was accepted")
        let bytes = Array(mail.utf8)
        for (i, byte) in bytes.enumerated() {
            if byte == 0x0D { require(i + 1 < bytes.count && bytes[i + 1] == 0x0A, "a bare CR at \(i)") }
            if byte == 0x0A { require(i > 0 && bytes[i - 1] == 0x0D, "a bare LF at \(i)") }
        }
        guard let end = firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: bytes) else { return require(false, "no empty line after the headers") }
        let fields = checkedFields(Array(bytes[..<end]), addresses: [Array(from.address.utf8), Array(to.address.utf8)])
        require(fields.map(\.name) == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"],
                "fields \(fields.map(\.name))")
        guard fields.count == 7 else { return }
        for (value, expected) in [(fields[0].value, from), (fields[1].value, to)] {
            let decoded = mailbox(value)
            require(decoded?.name == expected.displayName && decoded?.address == expected.address,
                    "an address field \(value.debugDescription) for \(expected)")
        }
        require(unstructured(fields[2].value) == message.subject, "subject \(fields[2].value.debugDescription)")
        require(fields[3].value.wholeMatch(of: /(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d \+0000/) != nil,
                "date header \(fields[3].value.debugDescription)")
        let boundary = "=_frontdoor_\(id)"
        require(fields[4].value == "<\(id)@\(domain)>" && fields[5].value == "1.0"
                && fields[6].value == "multipart/alternative; boundary=\"\(boundary)\"", "fixed headers")
        checkBodies(Array(bytes[(end + 4)...]), boundary: boundary, text: message.text, html: message.html)
    }

    /// The header block's fields, unfolded, after checking its lines. Worked out on bytes: to a String, a space or CR LF
    /// followed by a combining mark is one character.
    static func checkedFields(_ block: [UInt8], addresses: [[UInt8]]) -> [(name: String, value: String)] {
        var fields: [(name: String, value: [UInt8])] = []
        for line in split(block, by: [0x0D, 0x0A]) {
            if line.first == 0x20 {
                require(!fields.isEmpty && line.contains { $0 != 0x20 }, "a bad continuation line \(text(line))")
                if !fields.isEmpty { fields[fields.count - 1].value += line }
            } else if let colon = firstIndex(of: [0x3A, 0x20], in: line) {
                fields.append((text(Array(line[..<colon])), Array(line[(colon + 2)...])))
            } else {
                require(false, "not a field: \(text(line))")
            }
            // An address is the one thing written as it is (From's in From, To's in To): on a line of its own
            // (" <address>", "To: address") when long.
            let address = (1...2).contains(fields.count) ? addresses[fields.count - 1] : nil
            let rest = address.map { removing($0, from: line) } ?? line
            require(rest.allSatisfy { (0x20...0x7E).contains($0) }, "a header line that is not printable ASCII \(text(line))")
            let alone = address.map { [Array(" <".utf8) + $0 + [0x3E], Array("From: ".utf8) + $0, Array("To: ".utf8) + $0].contains(line) } ?? false
            require(line.count <= 78 || (alone && line.count <= 998), "a header line of \(line.count) characters")
            for word in text(line).matches(of: /=\?UTF-8\?B\?[^?]*\?=/) { require(word.output.utf8.count <= 75, "an encoded word too long") }
        }
        return fields.map { ($0.name, text($0.value)) }
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func split(_ bytes: [UInt8], by separator: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = [], start = 0
        while let found = firstIndex(of: separator, in: bytes, from: start) {
            pieces.append(Array(bytes[start..<found]))
            start = found + separator.count
        }
        return pieces + [Array(bytes[start...])]
    }

    static func removing(_ needle: [UInt8], from bytes: [UInt8]) -> [UInt8] {
        guard !needle.isEmpty else { return bytes }
        return split(bytes, by: needle).joined().map { $0 }
    }

    /// The two parts, exactly as expected, their quoted-printable checked and decoded back to the bodies.
    static func checkBodies(_ body: [UInt8], boundary: String, text: String, html: String) {
        let head = { (type: String) in Array("--\(boundary)\r\nContent-Type: text/\(type); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n".utf8) }
        let first = head("plain"), middle = [0x0D, 0x0A] + head("html"), last = Array("\r\n--\(boundary)--\r\n".utf8)
        guard body.starts(with: first), body.reversed().starts(with: last.reversed()), body.count >= first.count + middle.count + last.count,
              let split = firstIndex(of: middle, in: body, from: first.count), split + middle.count <= body.count - last.count
        else { return require(false, "the parts are not as expected") }
        for (encoded, expected) in [(Array(body[first.count..<split]), text), (Array(body[(split + middle.count)..<(body.count - last.count)]), html)] {
            require(quotedPrintable(encoded) == Array(crlf(expected).utf8), "a body did not survive")
        }
    }

    /// Quoted-printable → bytes, checking its lines; nil when malformed.
    static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8]? {
        for line in split(bytes, by: [0x0D, 0x0A]) {
            require(line.count <= 76 && line.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 }, "a body line \(text(line))")
            require(line.last != 0x20 && line.last != 0x09 && line.first != 0x2E && !line.starts(with: Array("From ".utf8)),
                    "a body line \(text(line))")
        }
        var out: [UInt8] = [], i = 0
        let hex = Array("0123456789ABCDEF".utf8)
        while i < bytes.count {
            guard bytes[i] == 0x3D else { out.append(bytes[i]); i += 1; continue }
            if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A { i += 3; continue }
            guard i + 2 < bytes.count, let high = hex.firstIndex(of: bytes[i + 1]), let low = hex.firstIndex(of: bytes[i + 2]) else { return nil }
            out.append(UInt8(high * 16 + low))
            i += 3
        }
        return out
    }

    /// A run of encoded words (each whole UTF-8) decoded and joined, or plain text as it is; nil when malformed.
    static func unstructured(_ value: String) -> String? {
        guard value.hasPrefix("=?") else { return value }
        var bytes: [UInt8] = []
        for word in value.split(separator: " ", omittingEmptySubsequences: false) {
            guard let match = word.wholeMatch(of: /=\?UTF-8\?B\?([A-Za-z0-9+\/=]*)\?=/), let data = Data(base64Encoded: String(match.output.1)),
                  String(validating: Array(data), as: UTF8.self) != nil else { return nil }
            bytes += data
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `phrase <address>` (atoms, a quoted string or encoded words) or a bare address; nil when malformed.
    static func mailbox(_ value: String) -> (name: String, address: String)? {
        guard value.hasSuffix(">"), let open = value.lastIndex(of: "<") else { return ("", value) }
        guard open > value.startIndex, value[value.index(before: open)] == " " else { return nil }
        let address = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
        let phrase = String(value[..<value.index(before: open)])
        guard phrase.hasPrefix("\"") else { return unstructured(phrase).map { ($0, address) } }
        guard phrase.count >= 2, phrase.hasSuffix("\"") else { return nil }
        var name = "", escaped = false
        for character in phrase.dropFirst().dropLast() {
            if !escaped && character == "\\" { escaped = true; continue }
            if !escaped && character == "\"" { return nil }
            name.append(character)
            escaped = false
        }
        return (name, address)
    }

    /// Any line break a header value must not hold: CR, LF, VT, FF, NEL, LS, PS.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || [0x85, 0x2028, 0x2029].contains(scalar.value)
    }

    /// An address that can be written as it is: 1 to 254 octets, no white space, control character, comma or angle bracket.
    static func isUsable(_ address: String) -> Bool {
        (1...254).contains(address.utf8.count) && !address.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control || ",<>".unicodeScalars.contains($0)
        }
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
