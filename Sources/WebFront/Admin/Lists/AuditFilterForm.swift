// AuditFilterForm.swift: the audit log's filters as the query string gives them (`event`, `person`, `address`, `since`,
// `until`, `page`), shared by the page (admin/audit) and the download (admin/audit/csv), which must match the same rows.
//
// Options: none. `person` is an account number (rows of that account, even a deleted one) or an address: rows whose
// address is that one (without case) OR rows of the account holding it now (Administration.resolve), so the rows of
// a person before and after a change of address both show. Dates are whole UTC days: `since` from the start of its
// day, `until` to the end of its day (included). A malformed date, an unknown event or an `until` before `since`
// is a field error: the page shows it beside the field, the download answers 400.
import AccountCore
import AccountRules
import Foundation
import IPAddresses

/// The parsed filters, their errors, and the query string that gives them again.
struct AuditFilterForm {
    /// Rows per page of the admin page.
    static let pageSize = 100
    /// The fields, in the form's and the query string's order.
    static let names = ["event", "person", "address", "since", "until"]

    /// Each field as given, trimmed (empty when absent).
    var values: [String: String] = [:]
    var filter = AuditFilter(limit: pageSize)
    var errors = ValidationErrors()
    /// The page asked for, from 1.
    var page = 1

    /// Reads `query`; `administration` resolves a person's address to their account.
    init(_ query: [String: String], administration: Administration) throws {
        for name in Self.names { values[name] = (query[name] ?? "").trimmingWhitespace() }
        if let page = Int(query["page"] ?? ""), page > 1, page <= 100_000 { self.page = page }
        filter.offset = (page - 1) * Self.pageSize
        if let event = values["event"], !event.isEmpty {
            if let known = AuditEvent(rawValue: event) { filter.event = known } else { fail("event", "admin_audit_event_unknown") }
        }
        if let person = values["person"], !person.isEmpty {
            if let id = Int64(person) {
                filter.accountId = id
            } else {
                filter.email = person
                do {
                    filter.accountId = try administration.resolve(person)
                    filter.accountOrEmail = true
                } catch AdministrationError.noAccount {
                    // No account holds the address now: its rows are those that name it.
                }
            }
        }
        // As rows hold it: an IP address in canonical form (`::ffff:192.0.2.1` is `192.0.2.1`); other text as given.
        if let address = values["address"], !address.isEmpty { filter.remoteAddress = IPAddress.canonical(address) }
        let since = day("since"), until = day("until")
        filter.since = since
        filter.until = until.map { $0.addingTimeInterval(86400) }
        if let since, let until, until < since { fail("until", "admin_audit_until_before_since") }
    }

    /// The filters given, as a query string (`event=…&person=…`), without the page; empty when none.
    var queryString: String {
        Self.names.compactMap { name in
            guard let value = values[name], !value.isEmpty else { return nil }
            return name + "=" + FormData.encode(value)
        }.joined(separator: "&")
    }

    /// The start of the UTC day field `name` gives as YYYY-MM-DD; nil when empty; a field error when malformed.
    private mutating func day(_ name: String) -> Date? {
        guard let text = values[name], !text.isEmpty else { return nil }
        guard let date = Self.date(text) else {
            fail(name, "admin_audit_date_invalid")
            return nil
        }
        return date
    }

    private mutating func fail(_ field: String, _ key: String) {
        errors.add(FieldError(key: key), to: field, displayName: field)
    }

    /// The start of the UTC day `text` names (`2026-11-23`); nil unless it is exactly such a day that exists.
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1970 else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = utc.date(from: components) else { return nil }
        let back = utc.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return date
    }

    /// The fields' labels, for their error messages.
    static func labels(_ catalog: MessageCatalog) -> [String: String] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, catalog.text("admin_audit_" + $0)) })
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}
