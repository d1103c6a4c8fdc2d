// German+AdminHealth.swift: German wording of the admin health page.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanAdminHealth: [String: String] = [
        "admin_health_title": "Zustand",
        "admin_health_intro": "Wie es der Website gerade geht. Zeiten sind in UTC angegeben.",
        "admin_health_ready_heading": "Bereitschaft",
        "admin_health_ready_text": "Was die Bereitschaftsprüfung den Lastverteilern gerade antwortet.",
        "admin_health_ready_ok": "Bereit",
        "admin_health_ready_not": "Nicht bereit",
        "admin_health_database": "Datenbank",
        "admin_health_database_ok": "antwortet",
        "admin_health_database_down": "antwortet nicht",
        "admin_health_listener": "Benachrichtigungen des Sitzungscaches",
        "admin_health_listener_ok": "werden empfangen",
        "admin_health_listener_down": "unterbrochen (der Cache wird umgangen)",
        "admin_health_figures_heading": "Zahlen",
        "admin_health_figures_unavailable": "Die Zahlen können nicht gelesen werden, solange die Datenbank nicht antwortet.",
        "admin_health_accounts": "Konten",
        "admin_health_live_sessions": "Aktive Sitzungen",
        "admin_health_locked": "Gesperrte Konten",
        "admin_health_mail_waiting": "E-Mails, die auf den Versand warten",
        "admin_health_mail_failed": "E-Mails, deren letzter Versuch fehlschlug",
        "admin_health_sign_ins": "Anmeldungen, letzte 24 Stunden",
        "admin_health_failed_sign_ins": "Fehlgeschlagene Anmeldungen, letzte 24 Stunden",
        "admin_health_charts_heading": "Anmeldungen pro Stunde",
        "admin_health_charts_text": "Die letzten 24 Stunden in UTC, die laufende Stunde zuletzt (sie ist noch nicht vorbei).",
        "admin_health_chart_sign_ins": "Anmeldungen pro Stunde, letzte 24 Stunden (UTC)",
        "admin_health_chart_failed": "Fehlgeschlagene Anmeldungen pro Stunde, letzte 24 Stunden (UTC)",
        "admin_health_chart_desc": "Insgesamt {total}; höchstens {max} in einer Stunde.",
        "admin_health_chart_tip": "{hour} Uhr UTC: {count}",
        "admin_health_table_summary": "Die Zahlen jeder Stunde",
        "admin_health_table_hour": "Stunde (UTC)",
        "admin_health_table_sign_ins": "Anmeldungen",
        "admin_health_table_failed": "Fehlgeschlagene Anmeldungen",
    ]
}
