// CommandOutput.swift: what the operator commands share: --json values, aligned tables, dates, durations,
// account references, reading a password (never from argv) and wording AccountCore's errors as one line.
import AccountCore
import AccountRules
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The client every operator action is audited with.
let operatorClient = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

/// A JSON value whose objects always carry every key (null when empty), printed sorted, so --json output is stable.
indirect enum JSONValue: Encodable {
    case string(String), int(Int64), bool(Bool), null
    case array([JSONValue])
    case object(KeyValuePairs<String, JSONValue>)

    static func date(_ date: Date?) -> JSONValue { date.map { .string(iso($0)) } ?? .null }
    static func text(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value): var c = encoder.singleValueContainer(); try c.encode(value)
        case .int(let value): var c = encoder.singleValueContainer(); try c.encode(value)
        case .bool(let value): var c = encoder.singleValueContainer(); try c.encode(value)
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .array(let values): var c = encoder.unkeyedContainer(); for value in values { try c.encode(value) }
        case .object(let pairs):
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in pairs { try c.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    /// Prints the value as indented JSON on stdout.
    func print() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}

/// A date as ISO 8601 in UTC (2026-11-23T10:00:00Z).
func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
func iso(_ date: Date?, or absent: String = "-") -> String { date.map { iso($0) } ?? absent }

/// Prints rows with every column but the last padded to its widest cell.
func printTable(_ header: [String], _ rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }
        print(cells.joined(separator: "  "))
    }
}

/// "90s", "15m", "2h", "1d", "1w" → seconds (positive).
func parseDuration(_ text: String, option: String) throws -> TimeInterval {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
    guard let unit = text.last.flatMap({ units[$0] }), let value = Double(text.dropLast()), value.isFinite, value > 0 else {
        throw CommandFailure("frontdoor: \(option) must be a duration such as 30m, 2h or 7d, not \"\(text)\"")
    }
    return value * unit
}

/// An ISO 8601 time (2026-11-23T10:00:00Z) or an age before now (30m, 2h, 7d).
func parseWhen(_ text: String, option: String, now: Date) throws -> Date {
    if let date = ISO8601DateFormatter().date(from: text) { return date }
    do { return now - (try parseDuration(text, option: option)) } catch {
        throw CommandFailure("frontdoor: \(option) must be an ISO 8601 time such as 2026-11-23T10:00:00Z or an age such as 30m, 2h or 7d, not \"\(text)\"")
    }
}

/// A positive --limit.
func checkLimit(_ limit: Int) throws {
    guard limit > 0 else { throw CommandFailure("frontdoor: --limit must be a positive number") }
}

/// Reads a password: from the terminal without echo (asked twice), else one line from stdin. Never from argv.
func readPassword() throws -> String {
    if isatty(STDIN_FILENO) == 1 {
        let first = try readHidden(prompt: "Password: ")
        let second = try readHidden(prompt: "Password again: ")
        guard first == second else { throw CommandFailure("frontdoor: the two passwords differ") }
        return first
    }
    guard let line = readLine(strippingNewline: true) else {
        throw CommandFailure("frontdoor: no password: type it at the prompt, or give it as one line on stdin")
    }
    return line
}

/// One line typed at the terminal with echo off (restored even on failure).
private func readHidden(prompt: String) throws -> String {
    FileHandle.standardError.write(Data(prompt.utf8))
    var saved = termios()
    guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw CommandFailure("frontdoor: cannot read the terminal settings") }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    defer {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    guard let line = readLine(strippingNewline: true) else { throw CommandFailure("frontdoor: no password typed") }
    return line
}

/// Runs an account operation, turning its errors into one line for stderr.
@discardableResult
func worded<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch AccountError.invalid(let errors) {
        let sentences = errors.fieldNames.flatMap { errors.messages(for: $0, in: .english) }
        throw CommandFailure("frontdoor: " + sentences.joined(separator: "; "))
    } catch let error as AdministrationError {
        throw CommandFailure("frontdoor: \(error)")
    } catch let error as BackupError {
        throw CommandFailure("frontdoor: \(error)")
    } catch let error as GroupError {
        throw CommandFailure("frontdoor: \(error)")
    } catch AccountError.refused(let key) {
        // The operator operations shared with the admin pages say why in the catalog's words.
        throw CommandFailure("frontdoor: " + MessageCatalog.english.text(key))
    }
}

/// The services, built from --config.
func makeServices(_ options: ConfigOptions) throws -> AccountServices {
    try Bootstrap.makeApp(try options.load()).services
}

extension AccountServices {
    /// The account named by an address or id; "frontdoor: no account X" otherwise.
    func account(_ reference: String) throws -> Int64 { try worded { try administration.resolve(reference) } }
}
