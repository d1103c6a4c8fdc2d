// ReadMail.swift: the tests' own reading of a mail Frontdoor wrote (written apart from AccountCore's encoders, to check
// them): header fields unfolded, RFC 2047 encoded words and quoted strings decoded, the parts of a multipart message
// with their quoted-printable bodies decoded. Strict: anything malformed is an error, not a guess.
import Foundation

/// Why a mail could not be read.
public struct MailReadError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A mail as a reader sees it.
public struct ReadMail {
    /// The message as written.
    public let raw: String
    /// Header fields in order, each unfolded (CRLF before a space or tab removed) but not decoded.
    public let fields: [(name: String, value: String)]
    /// The parts' content types and decoded bodies (one part for a message that is not multipart).
    public let parts: [(contentType: String, body: String)]

    public init(_ raw: String) throws {
        self.raw = raw
        guard let end = raw.range(of: "\r\n\r\n") else { throw MailReadError("no empty line after the headers") }
        fields = try Self.fields(String(raw[..<end.lowerBound]))
        let body = String(raw[end.upperBound...])
        let type = fields.first { $0.name.lowercased() == "content-type" }?.value ?? "text/plain"
        guard let boundary = type.firstMatch(of: /boundary="([^"]+)"/)?.output.1 else {
            parts = [(type, try Self.decoded(body, encoding: Self.field("Content-Transfer-Encoding", in: fields)))]
            return
        }
        var parts: [(String, String)] = []
        let sections = body.components(separatedBy: "--\(boundary)")
        guard sections.count >= 3, sections.last?.hasPrefix("--") == true else { throw MailReadError("unterminated multipart body") }
        for section in sections.dropFirst().dropLast() {
            // Worked out on bytes: to a String, CR LF is one character.
            let bytes = Array(section.utf8)
            guard bytes.starts(with: [0x0D, 0x0A]), bytes.reversed().starts(with: [0x0A, 0x0D]),
                  let split = Self.firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: bytes, from: 2) else { throw MailReadError("malformed part") }
            let partFields = try Self.fields(String(decoding: bytes[2..<split], as: UTF8.self))
            // The CRLF before a boundary belongs to the boundary.
            let content = split + 4 <= bytes.count - 2 ? String(decoding: bytes[(split + 4)..<(bytes.count - 2)], as: UTF8.self) : ""
            parts.append((Self.field("Content-Type", in: partFields) ?? "text/plain",
                          try Self.decoded(content, encoding: Self.field("Content-Transfer-Encoding", in: partFields))))
        }
        self.parts = parts
    }

    /// The unfolded value of the first field `name` (any case), not decoded.
    public func field(_ name: String) -> String? { Self.field(name, in: fields) }

    /// The decoded Subject.
    public var subject: String { get throws { try MailDecoding.unstructured(field("Subject") ?? "") } }

    /// The display name and address of an address field (From, To), decoded.
    public func mailbox(_ name: String) throws -> (displayName: String, address: String) {
        try MailDecoding.mailbox(field(name) ?? "")
    }

    /// The decoded body of the first part of `type` (text/plain, text/html).
    public func body(_ type: String) -> String? { parts.first { $0.contentType.lowercased().hasPrefix(type) }?.body }

    /// The header fields as written, then every decoded body: what a test searches for a link or a sentence.
    public var readable: String { raw.components(separatedBy: "\r\n\r\n")[0] + "\r\n\r\n" + parts.map(\.body).joined(separator: "\r\n") }

    static func field(_ name: String, in fields: [(name: String, value: String)]) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func fields(_ block: String) throws -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for line in block.components(separatedBy: "\r\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                guard !fields.isEmpty else { throw MailReadError("a continuation line before any field") }
                fields[fields.count - 1].value += line
            } else {
                guard let colon = line.firstIndex(of: ":"), line[line.index(after: colon)...].hasPrefix(" ") else {
                    throw MailReadError("not a header field: \(line.debugDescription)")
                }
                fields.append((String(line[..<colon]), String(line[line.index(colon, offsetBy: 2)...])))
            }
        }
        return fields
    }

    static func decoded(_ content: String, encoding: String?) throws -> String {
        guard encoding?.lowercased() == "quoted-printable" else { return content }
        let bytes = try MailDecoding.quotedPrintable(content)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw MailReadError("a body is not UTF-8") }
        return text
    }
}

/// The decoders, on their own.
public enum MailDecoding {
    /// Quoted-printable → bytes: `=` + CRLF is a soft break, `=XX` (upper-case hex) a byte, anything else after `=` an error.
    public static func quotedPrintable(_ text: String) throws -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = [], index = 0
        while index < bytes.count {
            guard bytes[index] == 0x3D else { out.append(bytes[index]); index += 1; continue }
            if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { index += 3; continue }
            guard index + 2 < bytes.count, let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
                  bytes[(index + 1)...(index + 2)].allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }) else {
                throw MailReadError("a bad = sequence at \(index)")
            }
            out.append(byte)
            index += 3
        }
        return out
    }

    /// An unstructured value: a run of encoded words separated by spaces (decoded and joined), or plain text as it is.
    public static func unstructured(_ value: String) throws -> String {
        value.hasPrefix("=?") ? try encodedWords(value) : value
    }

    /// `=?UTF-8?B?…?= =?UTF-8?B?…?=` → the text: the bytes of every word joined (the spaces between words are not text).
    public static func encodedWords(_ value: String) throws -> String {
        var bytes: [UInt8] = []
        for word in value.split(separator: " ") {
            guard let match = word.wholeMatch(of: /=\?UTF-8\?B\?([A-Za-z0-9+\/=]*)\?=/), let data = Data(base64Encoded: String(match.output.1)) else {
                throw MailReadError("not an encoded word: \(word)")
            }
            guard String(validating: Array(data), as: UTF8.self) != nil else { throw MailReadError("an encoded word splits a character") }
            bytes += data
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `display name <address>` (atoms, a quoted string or encoded words) or a bare address → (display name, address).
    public static func mailbox(_ value: String) throws -> (displayName: String, address: String) {
        guard value.hasSuffix(">"), let open = value.lastIndex(of: "<") else { return ("", value) }
        let address = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
        guard open > value.startIndex, value[value.index(before: open)] == " " else { throw MailReadError("no space before <") }
        let phrase = String(value[..<value.index(before: open)])
        if phrase.hasPrefix("\"") {
            guard phrase.count >= 2, phrase.hasSuffix("\"") else { throw MailReadError("an unterminated quoted string") }
            var name = "", escaped = false
            for character in phrase.dropFirst().dropLast() {
                if !escaped && character == "\\" { escaped = true; continue }
                guard escaped || character != "\"" else { throw MailReadError("a bare quote in a quoted string") }
                name.append(character)
                escaped = false
            }
            return (name, address)
        }
        return (try unstructured(phrase), address)
    }
}
