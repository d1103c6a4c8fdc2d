// Messages+Passkeys.swift: English wording of passkeys: the settings page, the sign-in and re-authentication buttons,
// the outcomes the pages and the script show, and the mails on adding and removing one.

extension MessageCatalog {
    /// English wording of passkeys; merged into `english` (a key there must not repeat here).
    static let englishPasskeys: [String: String] = [
        "settings_passkeys": "Passkeys",
        "passkeys_title": "Passkeys",
        "passkeys_text": "A passkey signs you in with your device's screen lock (fingerprint, face or PIN) instead of a password. It is kept on your device or in your password manager, and works only on this site.",
        "passkeys_empty": "You have no passkeys yet.",
        "passkeys_add_heading": "Add a passkey",
        "passkeys_name_label": "Name (optional)",
        "passkeys_name_hint": "So you can tell your passkeys apart, for example “Work laptop”.",
        "passkeys_add_button": "Add a passkey",
        "passkeys_unavailable": "Passkeys cannot be used on this site yet.",
        "passkeys_unsupported": "This browser cannot use passkeys. Try a recent browser, or another device.",
        "passkeys_created_at": "Added",
        "passkeys_last_used": "Last used",
        "passkeys_never": "Never",
        "passkeys_counter_went_back": "Warning: on {date} this passkey answered with a signature counter lower than before. If you did not copy it to another device, remove it and add a new one.",
        "passkeys_rename_label": "New name for {name}",
        "passkeys_rename_button": "Rename",
        "passkeys_remove_button": "Remove",
        "passkeys_remove_label": "Remove {name}",
        "passkey_default_name": "Passkey",
        "sign_in_passkey_button": "Sign in with a passkey",
        "second_factor_passkey_button": "Use a passkey instead",
        "reauthenticate_passkey_button": "Confirm with a passkey",

        // Outcomes (flash, and the script's messages).
        "passkey_added": "The passkey was added. You can now sign in with it.",
        "passkey_renamed": "The passkey was renamed.",
        "passkey_removed": "The passkey was removed.",
        "passkey_last_method": "This passkey is your only way to sign in. Set a password or add another passkey first.",
        "passkey_invalid": "That passkey could not be used. Please try again, or use another way to sign in.",
        "passkey_challenge_invalid": "That attempt has expired or was already used. Please try again.",
        "passkey_exists": "This passkey is already registered.",
        "passkey_too_many": "You have as many passkeys as an account may have. Remove one first.",
        "passkey_name_missing": "Please give the passkey a name.",
        "passkey_cancelled": "No passkey was used. You can try again.",
        "passkey_failed": "Something went wrong with the passkey. Please try again.",

        // Mails.
        "mail_passkey_added_subject": "A passkey was added to your {site} account",
        "mail_passkey_added_intro": "A passkey was added to your account. It can now be used to sign in:",
        "mail_passkey_added_not_you": "If you did not do this, remove it and change your password:",
        "mail_passkey_removed_subject": "A passkey was removed from your {site} account",
        "mail_passkey_removed_intro": "A passkey was removed from your account. It can no longer be used to sign in:",
        "mail_passkey_removed_not_you": "If you did not do this, check the passkeys in your settings:",
    ]
}
