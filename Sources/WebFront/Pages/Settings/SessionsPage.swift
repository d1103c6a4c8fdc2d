// SessionsPage.swift: settings/sessions: where this account is signed in; sign out one session or all others.
//
// Options: `session.reauthenticate_after`. Signing another session out needs a recent password entry (OWASP ASVS
// 3.3.4), so that a stolen session cannot lock its owner out; signing this browser's own session out needs only the
// CSRF token, like signing out. Times are shown in UTC.
import AccountCore
import AccountRules
import Foundation

/// `GET <base>/settings/sessions`, `POST …/revoke` (`handle`), `POST …/revoke_others`.
struct SessionsPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let sessionManagement: SessionManagement
    init(_ core: AccountServices) { sessionManagement = core.sessionManagement }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        let catalog = context.catalog
        let entries = try sessionManagement.list(accountId: session.accountId, current: session.digest)
        let rows: [[String: Any]] = entries.map { entry in
            [
                "handle": entry.handle,
                "browser": entry.kind == .api ? Self.appToken(entry.userAgent, catalog: catalog) : UserAgentSummary(entry.userAgent).text(in: catalog),
                "api": entry.kind == .api,
                "address": entry.remoteAddress,
                "created": Self.timestamp(entry.createdAt), "created_iso": Self.iso(entry.createdAt),
                "last_seen": Self.timestamp(entry.lastSeenAt), "last_seen_iso": Self.iso(entry.lastSeenAt),
                "remembered": entry.rememberMe && entry.kind == .browser,
                "current": entry.isCurrent,
            ]
        }
        return try context.layout.settingsPage("settings_sessions", section: "sessions", [
            "sessions": rows,
            "has_others": entries.contains { !$0.isCurrent },
            "paths_revoke": context.site.paths.path("settings/sessions/revoke"),
            "paths_revoke_others": context.site.paths.path("settings/sessions/revoke_others"),
        ])
    }

    func revoke(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        let handle = context.form["handle"] ?? ""
        let own = handle.lowercased() == SessionManagement.handle(for: session.digest)
        if !own { _ = try context.requireRecentSignIn(returnTo: path(context)) }
        do {
            try sessionManagement.revoke(handle: handle, accountId: session.accountId, client: context.client)
        } catch AccountError.notFound {
            // Already ended (or never this account's): the list shows what is left.
            return context.redirect(to: path(context))
        }
        if own {
            // This browser's own session: it is signed out of this account.
            context.clearSession()
            context.flash.set(Flash("signed_out"))
            return context.redirect(to: context.site.paths.path("sign_in"))
        }
        context.flash.set(Flash("session_revoked"))
        return context.redirect(to: path(context))
    }

    func revokeOthers(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        try sessionManagement.revokeOthers(accountId: session.accountId, except: session.digest, client: context.client)
        context.flash.set(Flash("sessions_revoked_others"))
        return context.redirect(to: path(context))
    }

    private func path(_ context: RequestContext) -> String { context.site.paths.path("settings/sessions") }

    /// "App token (MyApp/2.1 CFNetwork/1490)": a native app's token, named by the User-Agent it signed in with.
    static func appToken(_ userAgent: String, catalog: MessageCatalog) -> String {
        catalog.text("session_api_token", ["device": UserAgentSummary.name(of: userAgent, limit: 60, catalog: catalog)])
    }

    /// "2026-11-23 14:05 UTC".
    static func timestamp(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// "2026-11-23T14:05:09Z", for `<time datetime>`.
    static func iso(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}
