// MetricsPage.swift: `GET <base>/metrics`, Prometheus text format, for allow-listed addresses only.
//
// Options (config section `metrics`):
//   enabled             serve them at all
//   allowed_addresses   client addresses and CIDR ranges that may read them; a request nginx marks with
//                       `fastcgi_param FRONTDOOR_INTERNAL 1` (an `internal` location) may too
// Anyone else gets the ordinary 404, so the page does not announce itself.
// `frontdoor_database_up` is the readiness check's answer (HealthPage): while it is 0 the families read from the
// database are left out and the scrape still succeeds, so an alert can tell "database away" from "process gone".
import AccountCore
import Foundation
import IPAddresses

struct MetricsPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let audit: AuditLog
    let database: AppDatabase
    let mail: MailQueue
    init(_ core: AccountServices) { (audit, database, mail) = (core.audit, core.database, core.mail) }

    func show(_ context: RequestContext) throws -> Response {
        let settings = context.site.configuration.metrics
        guard settings.enabled, context.isInternalCaller(allowed: settings.allowedAddressList) else {
            throw HTTPError.notFound
        }
        var text = context.site.metrics.requestText()
        text += "# HELP frontdoor_host_info The host these figures are from (metrics.host): scrape every host.\n"
        text += "# TYPE frontdoor_host_info gauge\nfrontdoor_host_info{host=\"\(Metrics.escape(settings.host))\"} 1\n"
        if let figures = database.backend.figures { text += Metrics.storageText(figures) }
        let databaseUp = HealthPage.databaseAnswers(database)
        text += "# HELP frontdoor_database_up 1 while the database answers (as <base>/health/ready checks it), else 0.\n"
        text += "# TYPE frontdoor_database_up gauge\nfrontdoor_database_up \(databaseUp ? 1 : 0)\n"
        guard databaseUp else { return Response(status: 200, contentType: Self.contentType, text: text + residentText()) }
        let families: [(String, AuditEvent, String)] = [("sign_ins", .signIn, "Successful sign-ins."),
                                                         ("sign_in_failures", .signInFailed, "Failed sign-ins (any reason)."),
                                                         ("lockouts", .lockout, "Accounts locked."),
                                                         ("address_blocks", .addressBlocked, "Client addresses blocked."),
                                                         ("second_factors_enabled", .secondFactorEnabled, "One-time codes turned on."),
                                                         ("second_factors_removed", .secondFactorRemoved,
                                                          "One-time codes removed (by their owner or the operator)."),
                                                         ("passkeys_added", .passkeyAdded, "Passkeys added."),
                                                         ("passkeys_removed", .passkeyRemoved, "Passkeys removed."),
                                                         ("passkey_counters_went_back", .passkeySignCountWentBack,
                                                          "Passkey sign-ins whose signature counter went back (a copied authenticator?)."),
                                                         ("oidc_codes_reused", .openIDCodeReused,
                                                          "OpenID authorization codes presented again; what they issued was revoked (a stolen code?)."),
                                                         ("oidc_refresh_tokens_reused", .openIDRefreshTokenReused,
                                                          "OpenID refresh tokens presented again after rotation; their family was revoked (a stolen token?)."),
                                                         ("oidc_consents_given", .openIDConsentGiven, "Consents given to OpenID Connect apps."),
                                                         ("oidc_logouts_abandoned", .openIDLogoutAbandoned,
                                                          "Back-channel logouts given up after their last attempt (the app never answered).")]
        // Totals never falling when old rows are pruned: what pruning took (auditCount, by key) plus the rows kept
        // (counted on an index; see AuditLog.counts).
        let events = try audit.counts(of: families.map(\.1))
        for (name, event, help) in families {
            text += "# HELP frontdoor_\(name)_total \(help)\n# TYPE frontdoor_\(name)_total counter\n"
            text += "frontdoor_\(name)_total \(events[event.rawValue] ?? 0)\n"
        }
        text += "# HELP frontdoor_mail_queue_depth Mail waiting to be sent.\n# TYPE frontdoor_mail_queue_depth gauge\n"
        text += "frontdoor_mail_queue_depth \(try mail.pendingCount())\n"
        return Response(status: 200, contentType: Self.contentType, text: text + residentText())
    }

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The process's resident memory family, when it can be read.
    private func residentText() -> String {
        guard let resident = Self.residentBytes() else { return "" }
        return "# HELP process_resident_memory_bytes Resident memory size.\n# TYPE process_resident_memory_bytes gauge\n"
            + "process_resident_memory_bytes \(resident)\n"
    }

    /// The process's resident set in bytes, from /proc/self/statm (nil elsewhere).
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
