// Messages+AdminHealth.swift: English wording of the admin health page.

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAdminHealth: [String: String] = [
        "admin_health_title": "Health",
        "admin_health_intro": "How this site is doing now. Times are in UTC.",
        "admin_health_ready_heading": "Ready to serve",
        "admin_health_ready_text": "What the readiness check answers load balancers now.",
        "admin_health_ready_ok": "Ready",
        "admin_health_ready_not": "Not ready",
        "admin_health_database": "Database",
        "admin_health_database_ok": "answers",
        "admin_health_database_down": "does not answer",
        "admin_health_listener": "Session cache listener",
        "admin_health_listener_ok": "listening",
        "admin_health_listener_down": "not listening (the cache is bypassed)",
        "admin_health_figures_heading": "Figures",
        "admin_health_figures_unavailable": "The figures cannot be read while the database does not answer.",
        "admin_health_accounts": "Accounts",
        "admin_health_live_sessions": "Live sessions",
        "admin_health_locked": "Locked accounts",
        "admin_health_mail_waiting": "Mail waiting to be sent",
        "admin_health_mail_failed": "Mail whose last attempt failed",
        "admin_health_sign_ins": "Sign-ins, last 24 hours",
        "admin_health_failed_sign_ins": "Failed sign-ins, last 24 hours",
        "admin_health_charts_heading": "Sign-ins per hour",
        "admin_health_charts_text": "The last 24 hours in UTC, the current hour last (it is not over yet).",
        "admin_health_chart_sign_ins": "Sign-ins per hour, last 24 hours (UTC)",
        "admin_health_chart_failed": "Failed sign-ins per hour, last 24 hours (UTC)",
        "admin_health_chart_desc": "{total} in all; at most {max} in one hour.",
        "admin_health_chart_tip": "{hour} UTC: {count}",
        "admin_health_table_summary": "The figures of each hour",
        "admin_health_table_hour": "Hour (UTC)",
        "admin_health_table_sign_ins": "Sign-ins",
        "admin_health_table_failed": "Failed sign-ins",
    ]
}
