// Messages+AccountSettings.swift: English wording of the password, sessions and deletion pages (helper B).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAccountSettings: [String: String] = [
        // Password change.
        "password_change_title": "Change your password",
        "password_change_text": "Enter your current password, then the new one twice. Every other browser signed in to your account will be signed out; this one stays signed in.",
        "password_change_button": "Change password",
        "password_unchanged": "must be different from your current password",
        "password_updated": "Your password was changed. Every other session was signed out.",

        // Sessions.
        "sessions_title": "Where you're signed in",
        "sessions_text": "These browsers are signed in to your account. If you don't recognise one, sign it out and change your password.",
        "sessions_this_browser": "This browser",
        "sessions_address": "IP address",
        "sessions_created": "Signed in",
        "sessions_last_seen": "Last active",
        "sessions_remembered": "Remembered on this device",
        "sessions_revoke_button": "Sign out this session",
        "sessions_revoke_others_button": "Sign out everywhere else",
        "sessions_only_this": "No other browser is signed in to your account.",
        "session_browser_on_system": "{browser} on {system}",
        "session_unknown_browser_on_system": "A browser on {system}",
        "session_unknown_browser": "Unknown browser",
        "session_revoked": "That session was signed out.",
        "sessions_revoked_others": "Every other session was signed out.",

        // Account deletion.
        "delete_account_title": "Delete your account",
        "delete_account_text": "Deleting your account removes it for good, with its email addresses, its sessions and any mail not yet sent. This cannot be undone.",
        "delete_account_confirm_text": "Enter your password to confirm. We'll send a last message to your primary address.",
        "delete_account_button": "Delete my account",
        "account_deleted": "Your account was deleted. Goodbye, and thank you.",
    ]
}
