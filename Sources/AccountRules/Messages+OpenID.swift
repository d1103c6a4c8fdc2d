// Messages+OpenID.swift: English wording of the OpenID Connect provider's browser side: the authorize endpoint's error
// pages, the consent page, the account chooser and settings → Connected apps. `{client}` is the application's name
// from its registration; each scope is said in plain words (`oidc_scope_<scope>`).

extension MessageCatalog {
    /// English wording of the OpenID Connect provider's pages; merged into `english` (a key there must not repeat here).
    static let englishOpenID: [String: String] = [
        // Error pages: the application or its return address cannot be trusted, so nothing is sent back to it.
        "oidc_error_no_client": "This sign-in request does not say which application it is for. Go back to the application and try again.",
        "oidc_error_unknown_client": "This sign-in request is for an application this site does not know. Go back to the application and try again.",
        "oidc_error_no_redirect_uri": "This sign-in request does not say where to return. Go back to the application and try again.",
        "oidc_error_redirect_uri": "This sign-in request asks to return to an address the application did not register, so we stopped here. Go back to the application and try again.",
        "oidc_error_request_uri": "This sign-in request has expired or was already used. Go back to the application and try again.",

        // Consent.
        "oidc_consent_title": "Let {client} in?",
        "oidc_consent_text": "{client} asks to sign you in with your account here.",
        "oidc_consent_sees": "If you allow it, it will see:",
        "oidc_consent_where": "You will then return to",
        "oidc_consent_allow": "Allow",
        "oidc_consent_deny": "Don't allow",
        "oidc_scope_openid": "who you are here (an identifier that never changes)",
        "oidc_scope_profile": "your name and username",
        "oidc_scope_email": "your email address, and whether you confirmed it",
        "oidc_scope_groups": "the groups you belong to",

        // Choosing the account.
        "oidc_select_title": "Choose an account",
        "oidc_select_text": "Which account should {client} sign you in with?",
        "oidc_select_continue": "Continue as {email}",
        "oidc_select_another": "Use another account",

        // Settings: connected apps.
        "settings_apps": "Connected apps",
        "apps_title": "Connected apps",
        "apps_text": "Applications you let sign you in with this account.",
        "apps_sees": "It sees:",
        "apps_granted_at": "Allowed",
        "apps_last_used": "Last used",
        "apps_never_used": "never",
        "apps_revoke_button": "Disconnect",
        "apps_revoke_label": "Disconnect {client}",
        "apps_revoked": "The application was disconnected: it will ask again before it signs you in.",
        "apps_empty": "You have not let any application sign you in yet.",
    ]
}
