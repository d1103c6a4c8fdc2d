// AuditCSV.swift: audit rows as CSV for admin/audit/csv: a header row, then one line per row, RFC 4180.
//
// Options: none. RFC 4180: fields separated by commas, lines by CRLF; a field holding a comma, a quote, CR or LF is
// quoted, its quotes doubled. A field starting with = + - or @ gets a ' first: a spreadsheet would run it as a formula
// (OWASP "CSV injection"), and the detail, the address and the user agent come from people outside. Times are UTC,
// ISO 8601.
import AccountCore

/// Builds the CSV text of audit rows.
struct AuditCSV {
    static let header = ["time", "event", "account_id", "email", "client_address", "user_agent", "detail", "actor_id"]

    private(set) var text = AuditCSV.line(AuditCSV.header)

    /// Adds `entry`'s line.
    mutating func append(_ entry: AuditEntry) {
        text += Self.line([SessionsPage.iso(entry.createdAt), entry.event, entry.accountId.map(String.init) ?? "", entry.email ?? "",
                           entry.remoteAddress, entry.userAgent, entry.detail, entry.actorId.map(String.init) ?? ""])
    }

    /// One line: the fields made safe and joined, with its CRLF.
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field: defused against formulas, then quoted when it must be.
    static func field(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
