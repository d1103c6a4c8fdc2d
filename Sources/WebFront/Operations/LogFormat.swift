// LogFormat.swift: what every log line carries and how it is written.
//
// Options (config section `log`):
//   level    the lowest level written (swift-log's names)
//   format   `text`: swift-log's StreamLogHandler lines; `json`: one JSON object per line (JSONLogHandler)
// Every line written while a request is answered carries that request's `request_id` and `client` address (RequestLog,
// through swift-log's metadata provider), whichever module logs it, so a failed sign-in's line names the address
// fail2ban bans (config/fail2ban/) and an operator can follow one request through the log. The request id is nginx's
// `$request_id` when the site passes it (`fastcgi_param FRONTDOOR_REQUEST_ID`: 32 hex digits), else made here (24 hex
// digits, so a line tells which made it).
import Foundation
import Logging

/// The request being answered on this thread: its id and client address, for every line logged meanwhile.
public enum RequestLog {
    /// One request's log fields.
    public struct Fields: Sendable, Equatable {
        public var requestId: String
        public var client: String
        public init(requestId: String, client: String) { (self.requestId, self.client) = (requestId, client) }
    }

    /// Bound by `Frontdoor.respond` for the length of one request (a task local binds per thread outside tasks).
    @TaskLocal public static var current: Fields?

    /// Adds `request_id` and `client` to each line logged inside a request; nothing outside one.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let fields = current else { return [:] }
        return ["request_id": .string(fields.requestId), "client": .string(fields.client)]
    }

    /// nginx's `$request_id` (32 hex digits) when the site passes one that looks like an id, else `made()`: a value
    /// from outside goes into every line, so only letters, digits, `-` and `_`, at most 64, are taken.
    static func requestId(passed: String?, made: () -> String) -> String {
        let usable = passed.map { id in
            (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
            }
        } ?? false
        return usable ? passed! : made()
    }

    /// An id made here: `bytes` as lowercase hex, by table (String(format:) per byte cost more than a gate check).
    static func madeId(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// One JSON object per line: `time` (UTC, milliseconds), `level`, `event` (the message), then `account`, `client` and
/// `request_id` when known, then the line's other metadata, every value a string.
///
/// ```
/// {"time":"2026-11-29T04:01:02.345Z","level":"info","event":"sign-in failed","account":"-","client":"203.0.113.9",
///  "request_id":"5f0c…","reason":"unknown address"}        (one line in the log)
/// ```
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let now: @Sendable () -> Date
    private let write: @Sendable (String) -> Void

    /// `write` gets each line with its newline (stderr in the server); `now` gives the time (injected for tests).
    public init(metadataProvider: Logger.MetadataProvider?, now: @escaping @Sendable () -> Date = { Date() },
                write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.metadataProvider = metadataProvider
        self.now = now
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let own = event.metadata { all.merge(own) { _, new in new } }
        var fields: [(String, String)] = [("time", Self.timestamp(now())), ("level", event.level.rawValue), ("event", "\(event.message)")]
        for key in ["account", "client", "request_id"] { if let value = all.removeValue(forKey: key) { fields.append((key, "\(value)")) } }
        for key in all.keys.sorted() { fields.append((key, "\(all[key]!)")) }
        write("{" + fields.map { "\(Self.quoted($0.0)):\(Self.quoted($0.1))" }.joined(separator: ",") + "}\n")
    }

    /// The line on stderr in one write(2), so lines of several threads never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Foundation.write(2, $0.baseAddress, $0.count) }
    }

    /// `2026-11-29T04:01:02.345Z` (UTC, milliseconds cut, not rounded): every log line's time, and the JSON API's times
    /// (APIContext.timestamp), as Rails writes them. Built by hand: a formatter made per call (ISO8601DateFormatter
    /// opens an ICU formatter) cost an API answer a million instructions, String(format:) tens of thousands.
    static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down)), parts = tm()
        gmtime_r(&whole, &parts)
        let millis = min(999, Int((seconds - seconds.rounded(.down)) * 1000))
        var out: [UInt8] = []
        out.reserveCapacity(24)
        func padded(_ value: Int, _ width: Int, _ after: UInt8?) {
            let digits = Array(String(value).utf8)
            if digits.count < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
            out.append(contentsOf: digits)
            if let after { out.append(after) }
        }
        padded(Int(parts.tm_year) + 1900, 4, UInt8(ascii: "-"))
        padded(Int(parts.tm_mon) + 1, 2, UInt8(ascii: "-"))
        padded(Int(parts.tm_mday), 2, UInt8(ascii: "T"))
        padded(Int(parts.tm_hour), 2, UInt8(ascii: ":"))
        padded(Int(parts.tm_min), 2, UInt8(ascii: ":"))
        padded(Int(parts.tm_sec), 2, UInt8(ascii: "."))
        padded(millis, 3, UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as it is (UTF-8).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// swift-log's text lines (StreamLogHandler on stderr), each kept to one line: line breaks and other control characters
/// in the message or a metadata value are written as `\n`, `\u{1b}`…, so a value from outside (a provider's error text)
/// cannot start a line of its own that a log reader such as fail2ban would believe.
public struct TextLogHandler: LogHandler {
    private var inner: StreamLogHandler

    public init(label: String, metadataProvider: Logger.MetadataProvider?) {
        inner = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }
    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Self.oneLine("\(event.message)"))"
        event.metadata = event.metadata?.mapValues { .string(Self.oneLine("\($0)")) }
        inner.log(event: event)
    }

    /// `text` with control characters escaped as in Swift string literals.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.value == 0x2028 || $0.value == 0x2029 }) else {
            return text
        }
        return text.unicodeScalars.map { scalar in
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            case _ where scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029:
                return "\\u{\(String(scalar.value, radix: 16))}"
            default: return String(scalar)
            }
        }.joined()
    }
}
