// AdminAuditPage.swift: admin/audit (the audit trail, filtered, 100 rows a page, newest first) and admin/audit/csv
// (every matching row, up to 100,000, as a CSV download).
//
// Options: none. The filters (AuditFilterForm) are the same for both, so a download has exactly the rows the page
// pages through. Event names are shown as stored (`sign_in_failed`): what `frontdoor audit list --event` takes, the
// same in every language, marked `lang="en"` like the detail column, which the core writes in English. A person is
// linked to their page while their account exists; "by" names the admin who made a change on someone's account.
import AccountCore
import AccountRules
import Foundation

/// `GET <base>/admin/audit?event=&person=&address=&since=&until=&page=`, `GET <base>/admin/audit/csv?…`.
struct AdminAuditPage: Sendable {
    let audit: AuditLog
    let administration: Administration
    let clock: any Clock
    init(_ core: AccountServices) {
        audit = core.audit
        administration = core.administration
        clock = core.clock
    }

    /// The most rows one download holds.
    static let downloadLimit = 100_000

    func show(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let form = try AuditFilterForm(context.query, administration: administration)
        let catalog = context.catalog
        let paths = context.site.paths
        let labels = AuditFilterForm.labels(catalog)
        var values: [String: Any] = [:], filters: [String: Any] = [:]
        for name in AuditFilterForm.names {
            var field: [String: Any] = ["value": form.values[name] ?? ""]
            let messages = form.errors.messages(for: name, in: catalog, labels: labels)
            if !messages.isEmpty { field["error"] = messages.joined(separator: "; ") }
            filters[name] = field
        }
        values["filters"] = filters
        values["events"] = AuditEvent.allCases.map { ["value": $0.rawValue, "selected": $0 == form.filter.event] }
        let query = form.queryString
        values["csv"] = paths.path("admin/audit/csv") + (query.isEmpty ? "" : "?" + query)
        values["filtered"] = !query.isEmpty
        if !form.errors.isEmpty {
            values["form_error"] = catalog.text("form_has_errors")
            return try context.layout.adminPage("admin_audit", section: "audit", values, status: 422)
        }
        let page = try audit.page(form.filter)
        let person = paths.path("admin/person")
        values["rows"] = page.entries.map { entry -> [String: Any] in
            var row: [String: Any] = [
                "time": SessionsPage.timestamp(entry.createdAt), "time_iso": SessionsPage.iso(entry.createdAt),
                "event": entry.event, "address": entry.remoteAddress, "detail": entry.detail,
            ]
            let known = entry.accountId.flatMap { page.addresses[$0] }
            row["person"] = entry.email ?? known ?? entry.accountId.map { catalog.text("admin_audit_account", ["id": String($0)]) } ?? ""
            if let id = entry.accountId, known != nil { row["person_link"] = person + "?id=\(id)" }
            if let actor = entry.actorId {
                row["by"] = page.addresses[actor] ?? catalog.text("admin_audit_account", ["id": String(actor)])
                if page.addresses[actor] != nil { row["by_link"] = person + "?id=\(actor)" }
            }
            return row
        }
        values["has_rows"] = !page.entries.isEmpty
        let base = paths.path("admin/audit") + "?" + (query.isEmpty ? "" : query + "&")
        if form.page > 1 { values["newer"] = base + "page=\(form.page - 1)" }
        if page.hasMore { values["older"] = base + "page=\(form.page + 1)" }
        values["paged"] = form.page > 1 || page.hasMore
        values["page_text"] = catalog.text("admin_audit_page", ["page": String(form.page)])
        return try context.layout.adminPage("admin_audit", section: "audit", values)
    }

    func csv(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let form = try AuditFilterForm(context.query, administration: administration)
        guard form.errors.isEmpty else { throw HTTPError.badRequest }
        var csv = AuditCSV()
        try audit.forEach(form.filter, maximum: Self.downloadLimit) { csv.append($0) }
        return Response(status: 200, headers: [
            (name: "Content-Type", value: "text/csv; charset=utf-8"),
            (name: "Content-Disposition", value: "attachment; filename=\"\(Self.fileName(clock.now()))\""),
        ], body: Array(csv.text.utf8))
    }

    /// `audit-20261123-140509.csv`: when it was downloaded, UTC.
    static func fileName(_ date: Date) -> String {
        let iso = SessionsPage.iso(date)   // 2026-11-23T14:05:09Z
        let digits = iso.filter(\.isNumber)
        return "audit-" + digits.prefix(8) + "-" + digits.dropFirst(8).prefix(6) + ".csv"
    }
}
