// Messages+Settings.swift: English wording shared by the settings pages, re-authentication and the account switcher.

extension MessageCatalog {
    /// English wording of the settings frame; merged into `english` (a key there must not repeat here).
    static let englishSettings: [String: String] = [
        "settings_title": "Settings",
        "settings_link": "Settings",
        "settings_profile": "Profile",
        "settings_emails": "Email addresses",
        "settings_password": "Password",
        "settings_sessions": "Sessions",
        "settings_delete": "Delete account",
        "wrong_password": "is not correct",
        "field_display_name": "Display name",
        "field_current_password": "Current password",

        // Re-authentication.
        "reauthenticate_title": "Confirm it's you",
        "reauthenticate_text": "Enter your password to continue. We ask again when you last entered it more than a few minutes ago.",
        "reauthenticate_button": "Continue",
        "reauthentication_required": "Please enter your password again to continue.",
        "reauthenticated": "Thank you. You can go on.",

        // Several accounts in one browser.
        "accounts_title": "Your accounts",
        "switch_to": "Switch to {email}",
        "switch_button": "Switch",
        "active_account": "active",
        "sign_in_another": "Sign in to another account",
        "sign_out_all_button": "Sign out of all accounts",
        "sign_in_another_title": "Sign in to another account",
        "switched_account": "Switched account.",
        "signed_out_all": "Signed out of every account.",
        "signed_out_one": "Signed out of that account.",
        "too_many_accounts": "This browser is already signed in to the most accounts it may hold. Sign out of one first.",

        // Mail about settings changes.
        "mail_address_verification_subject": "Confirm the address you added to your {site} account",
        "mail_address_verification_intro": "This address was added to an account. To confirm that it is yours and start using it, follow this link:",
        "mail_address_verification_button": "Confirm this address",
        "mail_address_verification_ignore": "If you did not add this address, you can ignore this message; it will not be used.",
        "mail_address_added_subject": "An address was added to your {site} account",
        "mail_address_added_intro": "This address was confirmed as one of your account's, so it can now sign in and receive password reset links:",
        "mail_address_removed_subject": "An address was removed from your {site} account",
        "mail_address_removed_intro": "This address was removed from your account and can no longer sign in to it:",
        "mail_address_changes_settings": "Your email addresses:",
        "mail_primary_address_changed_subject": "The primary address of your {site} account was changed",
        "mail_primary_address_changed_intro": "Mail about your account now goes to another of its addresses:",
        "mail_primary_address_changed_not_you": "If you did not make this change, reset your password right away:",
        "mail_account_deleted_subject": "Your {site} account was deleted",
        "mail_account_deleted_intro": "Your account and everything it held were deleted, as you asked. Goodbye, and thank you.",
        "mail_account_deleted_not_you": "If you did not ask for this, tell the people who run this site at once.",
        // The sign-out page an app links to (`<base>/sign_out?rd=…`).
        "sign_out_title": "Sign out",
        "sign_out_question": "Sign out of {site}?",
        "sign_out_cancel": "Stay signed in",
    ]
}
