// LogFormatTests.swift: the JSON log lines (LogFormat) and the request fields every line inside a request carries.
import AccountCore
import Foundation
import Logging
import Locking
import Testing
@testable import WebFront

/// Lines a handler wrote, kept in memory.
final class WrittenLines: @unchecked Sendable {
    private let lock = Lock()
    private var kept: [String] = []
    func append(_ line: String) { lock.withLock { kept.append(line) } }
    var lines: [String] { lock.withLock { kept } }
    /// Each line as a JSON object.
    var objects: [[String: String]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
    }
}

struct LogFormatTests {
    /// A logger writing JSON lines into `lines`, with the request fields, as Bootstrap sets it up for `log.format: json`.
    static func jsonLogger(_ lines: WrittenLines, at seconds: Double = 1_795_924_862.5) -> Logger {
        Logger(label: "test") { _ in
            JSONLogHandler(metadataProvider: RequestLog.metadataProvider, now: { Date(timeIntervalSince1970: seconds) }, write: { lines.append($0) })
        }
    }

    @Test func aLineIsOneJSONObjectWithTimeLevelEventThenTheKnownFieldsThenTheRest() throws {
        let lines = WrittenLines()
        Self.jsonLogger(lines).info("sign-in failed", metadata: ["reason": "wrong \"password\"\n", "account": "7", "client": "203.0.113.9"])
        #expect(lines.lines == [#"{"time":"2026-11-29T04:01:02.500Z","level":"info","event":"sign-in failed","account":"7","#
                                + #""client":"203.0.113.9","reason":"wrong \"password\"\n"}"# + "\n"])
    }

    /// The log's and the JSON API's times, written by hand, read as Foundation's ISO 8601 formatter (which the API
    /// used before) writes them: UTC, milliseconds, `Z`.
    @Test(arguments: [0, 1_764_388_862.345, 1_764_388_862.9994, 951_782_400, 4_102_444_799.5])
    func timesAreWrittenAsFoundationsISO8601FormatterWritesThem(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(JSONLogHandler.timestamp(date) == formatter.string(from: date))
        #expect(APIContext.timestamp(date) == JSONLogHandler.timestamp(date))
    }

    @Test func controlCharactersAreEscapedSoALineStaysOneLine() {
        #expect(JSONLogHandler.quoted("a\u{1}b\u{2028}c\\") == #""a\u0001b\u2028c\\""#)
    }

    @Test func nginxsRequestIdIsTakenWhenItLooksLikeOneElseOneIsMade() {
        #expect(RequestLog.requestId(passed: "0f3c9a_b-Z", made: { "made" }) == "0f3c9a_b-Z")
        for bad in [nil, "", "a b", "x\ny", "é", String(repeating: "a", count: 65), "a\"b"] {
            #expect(RequestLog.requestId(passed: bad, made: { "made" }) == "made", "\(String(describing: bad))")
        }
    }

    @Test func aFailedSignInsLineNamesTheClientAndTheRequestWhicheverModuleWritesIt() throws {
        let lines = WrittenLines()
        let test = try makeApp(logger: Self.jsonLogger(lines))
        let browser = TestBrowser(test.app)
        browser.remoteAddress = "203.0.113.9"
        let token = browser.csrfToken(for: "/account/sign_in")
        let body = "email=nobody%40example.com&password=wrong-password-1&csrf_token=\(token)"
        browser.send(Request(params: ["REQUEST_METHOD": "POST", "REQUEST_URI": "/account/sign_in", "REMOTE_ADDR": "203.0.113.9",
                                      "CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": "\(body.utf8.count)",
                                      "HTTP_COOKIE": browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                                      "FRONTDOOR_REQUEST_ID": "5f0c2b9e8d7a6f5e4d3c2b1a09f8e7d6"], body: Array(body.utf8)))
        let failed = try #require(lines.objects.first { $0["event"] == "sign-in failed" })
        #expect(failed["client"] == "203.0.113.9" && failed["request_id"] == "5f0c2b9e8d7a6f5e4d3c2b1a09f8e7d6")
        #expect(failed["level"] == "info" && failed["account"] == "-" && failed["reason"] == "unknown address")
        #expect(!lines.lines.joined().contains("wrong-password-1"))
    }

    @Test func aRequestWithoutAnIdGetsItsOwnAndLinesOutsideARequestHaveNone() throws {
        let lines = WrittenLines()
        let logger = Self.jsonLogger(lines)
        let test = try makeApp(logger: logger)
        let browser = TestBrowser(test.app)
        browser.remoteAddress = "198.51.100.4"
        for _ in 0..<2 { _ = browser.post("/account/sign_in", ["email": "nobody@example.com", "password": "wrong-password-1"]) }
        let ids = lines.objects.filter { $0["event"] == "sign-in failed" }.map { $0["request_id"] ?? "" }
        #expect(ids.count == 2 && Set(ids).count == 2 && ids.allSatisfy { $0.count == 24 && $0.allSatisfy(\.isHexDigit) })
        logger.info("outside")
        let outside = try #require(lines.objects.last)
        #expect(outside["event"] == "outside" && outside["request_id"] == nil && outside["client"] == nil)
    }
}

extension LogFormatTests {
    @Test func aTextLineCannotBeSplitByAValueFromOutside() {
        let forged = "x\n2026-11-29T04:01:02+0000 info frontdoor : account=- client=192.0.2.1 [AccountCore] sign-in failed"
        #expect(TextLogHandler.oneLine(forged) == forged.replacingOccurrences(of: "\n", with: "\\n"))
        #expect(TextLogHandler.oneLine("a\r\u{1b}[31mb\u{85}") == "a\\r\\u{1b}[31mb\\u{85}")
        #expect(TextLogHandler.oneLine("plain é") == "plain é")
    }
}
