// AdminHealthPage.swift: `GET <base>/admin/health`: is the site ready (the facts of `GET <base>/health/ready`), its
// figures (accounts, live sessions, locked accounts, the mail queue, sign-ins and failures over the last day) and
// two bar charts of sign-ins and failed sign-ins per UTC hour, drawn on the server (BarChartSVG), with their table.
//
// Options: none of its own (admin access: AdminAccess). Nothing here changes anything, so it is a plain GET.
// The readiness is HealthPage.readiness, the very check load balancers read; while the database does not answer the
// page still renders and says the figures cannot be read (the figures are SiteFigures, one read transaction).
import AccountCore
import AccountRules
import Foundation

struct AdminHealthPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let database: AppDatabase
    let figures: SiteFigures
    init(_ core: AccountServices) { (database, figures) = (core.database, core.figures) }

    func show(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let readiness = HealthPage.readiness(database)
        var found: SiteFigureSet?
        if readiness.database {
            do {
                found = try figures.current()
            } catch {
                // The database went away between the two reads: the page says the figures cannot be read.
                context.site.logger.warning("admin health: figures unreadable", metadata: ["error": "\(error)"])
            }
        }
        var values: [String: Any] = ["ready": [
            "ok": readiness.ready, "database": readiness.database,
            "has_listener": readiness.listener != nil, "listener": readiness.listener == true,
        ]]
        if let found {
            values["figures"] = ["rows": Self.figureRows(found, catalog: context.catalog)]
            values["charts"] = Self.charts(found.hourly, catalog: context.catalog)
            values["hours"] = (0..<found.hourly.hours).map { index in
                let start = found.hourly.hourStart(index)
                return ["time": SessionsPage.timestamp(start), "iso": SessionsPage.iso(start),
                        "sign_ins": found.hourly.signIns[index], "failed": found.hourly.failedSignIns[index]] as [String: Any]
            }
        }
        return try context.layout.adminPage("admin_health", section: "health", values)
    }

    /// The numbers, labelled and named (`data-figure`: accounts, live_sessions, locked …), in the order shown.
    static func figureRows(_ figures: SiteFigureSet, catalog: MessageCatalog) -> [[String: Any]] {
        [("admin_health_accounts", figures.accounts), ("admin_health_live_sessions", figures.liveSessions),
         ("admin_health_locked", figures.lockedAccounts), ("admin_health_mail_waiting", figures.mailWaiting),
         ("admin_health_mail_failed", figures.mailFailed), ("admin_health_sign_ins", figures.signInsTotal),
         ("admin_health_failed_sign_ins", figures.failedSignInsTotal)].map { key, value in
            ["label": catalog.text(key), "value": value, "name": String(key.dropFirst("admin_health_".count))]
        }
    }

    /// The two charts: a heading and the drawing each.
    static func charts(_ hourly: HourlySignIns, catalog: MessageCatalog) -> [[String: Any]] {
        [("chart-sign-ins", "admin_health_chart_sign_ins", hourly.signIns),
         ("chart-failed-sign-ins", "admin_health_chart_failed", hourly.failedSignIns)].map { id, key, counts in
            let title = catalog.text(key)
            let description = catalog.text("admin_health_chart_desc", ["total": String(counts.reduce(0, +)), "max": String(counts.max() ?? 0)])
            return ["id": id, "title": title, "svg": BarChartSVG.svg(bars(hourly, counts, catalog: catalog), id: id, title: title,
                                                                   description: description)]
        }
    }

    /// One bar per hour; the hours 00, 06, 12 and 18 UTC labelled.
    static func bars(_ hourly: HourlySignIns, _ counts: [Int], catalog: MessageCatalog) -> [BarChartSVG.Bar] {
        counts.enumerated().map { index, count in
            let hour = Int((hourly.hourStart(index).timeIntervalSince1970 / 3600).rounded(.down)) % 24
            let clock = String(format: "%02d:00", hour)
            return BarChartSVG.Bar(value: count, label: hour % 6 == 0 ? clock : nil,
                                   tip: catalog.text("admin_health_chart_tip", ["hour": clock, "count": String(count)]))
        }
    }
}
