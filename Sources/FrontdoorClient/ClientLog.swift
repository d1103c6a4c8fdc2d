// ClientLog.swift: what a FrontdoorClient tells about its requests (devise-ios' logging modes), and what it never does.
//
// Options: from Configuration `logLevel` and `logSink`. Levels:
//   .none        nothing (the default)
//   .warnings    retries after a connection error, HTTP failures (status and the server's message), checks that
//                failed before sending (field names only)
//   .everything  the warnings, plus each request ("POST v1/users/sign_in") and its answer (status, milliseconds),
//                and local account changes (switching, signing out)
// A line names a method, a path, a status, field names, an account address and the server's message (which never
// repeats a password or token); it never carries a request or answer body, a header, a password, an API token, a
// residence secret, a provider token or an assertion. Paths hold no secrets: every secret the client sends travels
// in a body or a header.
import Foundation

extension FrontdoorClient {
    /// How much a client logs.
    public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
        case none, warnings, everything

        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Receives each line with its level (`.warnings` or `.everything`).
    public typealias LogSink = @Sendable (_ level: LogLevel, _ line: String) -> Void

    /// The default sink: standard error, one line per call.
    public static let standardErrorLog: LogSink = { _, line in
        FileHandle.standardError.write(Data("FrontdoorClient: \(line)\n".utf8))
    }

    /// Hands `line` to the sink when the configured level includes `level`; the text is built only then.
    func log(_ level: LogLevel, _ line: @autoclosure () -> String) {
        guard level != .none, configuration.logLevel >= level else { return }
        configuration.logSink(level, line())
    }
}
