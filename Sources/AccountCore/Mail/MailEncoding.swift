// MailEncoding.swift: the encoders that make a mail 7-bit ASCII with short lines, so any mail server takes it:
// RFC 2047 encoded words for header text, RFC 2045 quoted-printable for bodies, and a mailbox split into its display
// name and address.
//
// Limits kept (pure functions, no options):
//   header lines   at most 78 characters, folded with CRLF + space; a line holding a long address is the exception (an
//                  address is never folded nor encoded; at most 254 octets, so that line stays far below RFC 5322's 998)
//   encoded words  UTF-8, B encoding, at most 75 characters, each a whole number of characters
//   body lines     at most 76 characters with the soft break "=", CRLF line ends
import AccountRules
import Foundation

/// Pure encoders for headers and bodies; `MailMessage.rfc5322` puts them together.
public enum MailEncoding {
    /// Longest header line written (RFC 5322 2.1.1).
    static let headerLineLimit = 78
    /// Longest encoded word (RFC 2047 2).
    static let encodedWordLimit = 75
    /// Longest body line, a soft break's "=" included (RFC 2045 6.7).
    static let bodyLineLimit = 76

    private static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, equals: UInt8 = 0x3D, space: UInt8 = 0x20, tab: UInt8 = 0x09

    // MARK: - Bodies

    /// `body` as quoted-printable with CRLF line ends.
    ///
    /// Every line end of the input (CRLF, a lone CR, a lone LF) is one hard line break. Printable ASCII stays itself except
    /// "="; space and tab stay except at the end of a line; every other byte of the UTF-8 is `=XX`. A line longer than 76
    /// characters is cut by soft breaks (`=` + CRLF) that never split an `=XX`. A "." or "From " that starts a written
    /// line is encoded too (RFC 2049 3), so neither a transport without dot-stuffing nor an mbox can alter it.
    ///
    /// ```swift
    /// MailEncoding.quotedPrintable("Café = 3 €\n")   // "Caf=C3=A9 =3D 3 =E2=82=AC\r\n"
    /// ```
    public static func quotedPrintable(_ body: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(body.utf8.count * 3 / 2)
        for (index, line) in hardLines(Array(body.utf8)).enumerated() {
            if index > 0 { out += [cr, lf] }
            out += encodedLine(line)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lines of `bytes` without their ends; CRLF, CR and LF each end one line ("a\n" is "a" and "").
    static func hardLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = [], start = 0, index = 0
        while index < bytes.count {
            guard bytes[index] == cr || bytes[index] == lf else { index += 1; continue }
            lines.append(bytes[start..<index])
            index += bytes[index] == cr && index + 1 < bytes.count && bytes[index + 1] == lf ? 2 : 1
            start = index
        }
        lines.append(bytes[start...])
        return lines
    }

    /// One hard line, soft-broken into written lines of at most 76 characters.
    private static func encodedLine(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = [], written: [UInt8] = []
        for index in line.indices {
            let isLast = index == line.index(before: line.endIndex)
            var token = encodedByte(line, at: index, atLineStart: written.isEmpty, isLast: isLast)
            // The last token may fill the line; any other must leave room for a soft break's "=".
            if written.count + token.count > (isLast ? bodyLineLimit : bodyLineLimit - 1) {
                out += written + [equals, cr, lf]
                written = []
                token = encodedByte(line, at: index, atLineStart: true, isLast: isLast)
            }
            written += token
        }
        return out + written
    }

    /// The byte at `index` as written: itself, or `=XX`.
    private static func encodedByte(_ line: ArraySlice<UInt8>, at index: Int, atLineStart: Bool, isLast: Bool) -> [UInt8] {
        let byte = line[index]
        let literal: Bool
        switch byte {
        case space, tab: literal = !isLast
        case equals: literal = false
        case 0x2E where atLineStart: literal = false   // "."
        case 0x46 where atLineStart && line[index...].starts(with: Array("From ".utf8)): literal = false
        case 0x21...0x7E: literal = true
        default: literal = false
        }
        return literal ? [byte] : [equals] + Array(String(format: "%02X", byte).utf8)
    }

    // MARK: - Headers

    /// An unstructured header such as Subject, folded to lines of at most 78 characters.
    ///
    /// Printable ASCII without leading, trailing or doubled spaces (and without "=?") stays as it is, folded before a space;
    /// anything else, or a word too long to fold, becomes UTF-8 encoded words, one per line.
    ///
    /// ```swift
    /// MailEncoding.unstructuredHeader("Subject", "Réinitialisez votre mot de passe")
    /// // "Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXogdm90cmUgbW90IGRlIHBhc3Nl?="
    /// ```
    public static func unstructuredHeader(_ name: String, _ value: String) -> String {
        let prefix = name + ": "
        let room = headerLineLimit - prefix.utf8.count
        let lines = isPlain(value) ? foldedAtSpaces(value, firstRoom: room) : nil
        return prefix + (lines ?? encodedWords(value, firstRoom: room)).joined(separator: "\r\n")
    }

    /// An address header such as From or To: `Name: display name <address>`, or `Name: address` without a display name.
    ///
    /// The display name stays as it is when it is words of atext, becomes a quoted string when it is other printable ASCII,
    /// and encoded words otherwise; the address is written as it is, on the last line when it fits, else on a line of its
    /// own.
    ///
    /// ```swift
    /// MailEncoding.mailboxHeader("From", "Zoë <no-reply@example.com>")   // "From: =?UTF-8?B?Wm/Dqw==?= <no-reply@example.com>"
    /// ```
    public static func mailboxHeader(_ name: String, _ mailbox: String) -> String {
        let prefix = name + ": "
        let (displayName, address) = Self.mailbox(mailbox)
        guard !displayName.isEmpty else { return prefix + address }
        let room = headerLineLimit - prefix.utf8.count
        var lines = phraseLines(displayName, firstRoom: room)
        let angle = " <" + address + ">"
        let used = lines[lines.count - 1].utf8.count + (lines.count == 1 ? prefix.utf8.count : 0)
        if used + angle.utf8.count <= headerLineLimit { lines[lines.count - 1] += angle } else { lines.append(angle) }
        return prefix + lines.joined(separator: "\r\n")
    }

    /// `Name <a@b.c>` → ("Name", "a@b.c"); `"Name, Inc." <a@b.c>` → ("Name, Inc.", "a@b.c"); `a@b.c` → ("", "a@b.c").
    public static func mailbox(_ value: String) -> (displayName: String, address: String) {
        let trimmed = value.trimmingWhitespace()
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else { return ("", trimmed) }
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        var name = String(trimmed[..<open]).trimmingWhitespace()
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            var unquoted = "", escaped = false
            for character in name.dropFirst().dropLast() {
                if !escaped && character == "\\" { escaped = true; continue }
                unquoted.append(character)
                escaped = false
            }
            name = unquoted
        }
        return (name, address)
    }

    /// Printable ASCII that can be written as it is: no leading, trailing or doubled space, no "=?" (the start of an
    /// encoded word).
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) } && !text.hasPrefix(" ") && !text.hasSuffix(" ")
            && !text.contains("  ") && !text.contains("=?")
    }

    /// `text` cut before spaces into lines (the first of at most `firstRoom` characters, the others of at most 78 with
    /// their leading space), or nil when a word is too long for a line.
    static func foldedAtSpaces(_ text: String, firstRoom: Int) -> [String]? {
        var lines: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if let last = lines.last, last.utf8.count + 1 + word.utf8.count <= (lines.count == 1 ? firstRoom : headerLineLimit) {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(lines.isEmpty ? String(word) : " " + word)
            }
        }
        for (index, line) in lines.enumerated() where line.utf8.count > (index == 0 ? firstRoom : headerLineLimit) { return nil }
        return lines
    }

    /// A display name as lines: atext words as they are, other printable ASCII as one quoted string, else encoded words.
    static func phraseLines(_ name: String, firstRoom: Int) -> [String] {
        let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)
        if isPlain(name) {
            let isAtoms = name.utf8.allSatisfy { $0 == space || atext.contains($0) || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            if isAtoms, let lines = foldedAtSpaces(name, firstRoom: firstRoom) { return lines }
            let quoted = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            if !isAtoms, quoted.utf8.count <= firstRoom { return [quoted] }
        }
        return encodedWords(name, firstRoom: firstRoom)
    }

    /// `text` as UTF-8 B encoded words, each at most 75 characters and a whole number of characters; the first fits in
    /// `firstRoom`, the others on lines of their own (each after a space).
    static func encodedWords(_ text: String, firstRoom: Int) -> [String] {
        var words: [String] = [], chunk: [UInt8] = []
        var room = min(encodedWordLimit, firstRoom)
        func flush() {
            words.append((words.isEmpty ? "" : " ") + "=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
            chunk = []
            room = min(encodedWordLimit, headerLineLimit - 1)
        }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            // "=?UTF-8?B?" and "?=" take 12 characters; base64 writes 4 for each 3 bytes.
            if !chunk.isEmpty && chunk.count + bytes.count > (room - 12) / 4 * 3 { flush() }
            chunk += bytes
        }
        flush()
        return words
    }
}
