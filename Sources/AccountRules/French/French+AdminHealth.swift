// French+AdminHealth.swift: French wording of the admin health page.

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchAdminHealth: [String: String] = [
        "admin_health_title": "État",
        "admin_health_intro": "L’état du site en ce moment. Les heures sont en UTC.",
        "admin_health_ready_heading": "Disponibilité",
        "admin_health_ready_text": "Ce que la vérification de disponibilité répond en ce moment aux répartiteurs de charge.",
        "admin_health_ready_ok": "Prêt",
        "admin_health_ready_not": "Pas prêt",
        "admin_health_database": "Base de données",
        "admin_health_database_ok": "répond",
        "admin_health_database_down": "ne répond pas",
        "admin_health_listener": "Écoute du cache des sessions",
        "admin_health_listener_ok": "active",
        "admin_health_listener_down": "interrompue (le cache est contourné)",
        "admin_health_figures_heading": "Chiffres",
        "admin_health_figures_unavailable": "Les chiffres ne peuvent pas être lus tant que la base de données ne répond pas.",
        "admin_health_accounts": "Comptes",
        "admin_health_live_sessions": "Sessions actives",
        "admin_health_locked": "Comptes verrouillés",
        "admin_health_mail_waiting": "Courriels en attente d’envoi",
        "admin_health_mail_failed": "Courriels dont le dernier essai a échoué",
        "admin_health_sign_ins": "Connexions, dernières 24 heures",
        "admin_health_failed_sign_ins": "Connexions échouées, dernières 24 heures",
        "admin_health_charts_heading": "Connexions par heure",
        "admin_health_charts_text": "Les dernières 24 heures en UTC, l’heure en cours en dernier (elle n’est pas finie).",
        "admin_health_chart_sign_ins": "Connexions par heure, dernières 24 heures (UTC)",
        "admin_health_chart_failed": "Connexions échouées par heure, dernières 24 heures (UTC)",
        "admin_health_chart_desc": "{total} en tout ; au plus {max} en une heure.",
        "admin_health_chart_tip": "{hour} UTC : {count}",
        "admin_health_table_summary": "Les chiffres de chaque heure",
        "admin_health_table_hour": "Heure (UTC)",
        "admin_health_table_sign_ins": "Connexions",
        "admin_health_table_failed": "Connexions échouées",
    ]
}
