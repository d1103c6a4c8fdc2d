// Messages+OneTimeCodes.swift: English wording of one-time codes (an authenticator app as a second factor) and
// recovery codes: the settings page, its outcomes and its mails. People see "two-step sign-in"; "code" is the
// six-digit code an app shows, "recovery code" one of the ten kept for when the app is lost.

extension MessageCatalog {
    /// English wording of one-time codes; merged into `english` (a key there must not repeat here).
    static let englishOneTimeCodes: [String: String] = [
        "settings_two_step": "Two-step sign-in",
        "two_step_title": "Two-step sign-in",
        "two_step_intro": "After your password, we also ask for a code from an authenticator app on your phone. Someone who learns your password still cannot sign in without it.",
        "two_step_state_off": "Two-step sign-in is off.",
        "two_step_state_on": "Two-step sign-in is on: we ask for a code from your authenticator app after your password.",
        "two_step_codes_left": "Recovery codes left: {count} of 10.",
        "two_step_codes_low": "Few recovery codes are left. Make new ones and keep them safe.",
        "two_step_begin_button": "Set up an authenticator app",

        // Enrolling.
        "two_step_scan": "1. Scan this QR code with your authenticator app.",
        "two_step_qr_label": "QR code for your authenticator app",
        "two_step_manual": "Can't scan it? Enter this key in the app instead (time-based):",
        "two_step_uri": "Or open this link on the device that has the app:",
        "two_step_enter_code": "2. Enter the six-digit code the app shows now.",
        "two_step_code_label": "Code",
        "two_step_code_hint": "Six digits; a new code comes every 30 seconds.",
        "two_step_confirm_button": "Turn on",
        "wrong_code": "is not the code your app shows now: check the app and try the current code",

        // Recovery codes, shown once.
        "two_step_codes_title": "Your recovery codes",
        "two_step_codes_text": "Each of these codes signs you in once when you don't have your authenticator app. Print them or store them in your password manager now: they are shown only this once.",
        "two_step_codes_done": "I have kept them",
        "two_step_renew_text": "New recovery codes replace all the old ones, used or not.",
        "two_step_renew_button": "Make new recovery codes",

        // Turning off.
        "two_step_off_text": "Turning two-step sign-in off removes the app's key and your recovery codes. Your password alone will sign you in.",
        "two_step_off_button": "Turn off two-step sign-in",

        // Outcomes.
        "two_step_turned_on": "Two-step sign-in is on.",
        "two_step_turned_off": "Two-step sign-in is off.",
        "two_step_already_on": "Two-step sign-in is on already.",
        "two_step_off": "Two-step sign-in is off.",
        "two_step_not_begun": "That set-up has ended. Please start again.",

        // Mails.
        "mail_second_factor_enabled_subject": "Two-step sign-in was turned on for your {site} account",
        "mail_second_factor_enabled_intro": "Two-step sign-in was turned on for your account: signing in now needs a code from an authenticator app after the password.",
        "mail_second_factor_enabled_not_you": "If you did not do this, reset your password and check your settings:",
        "mail_second_factor_removed_subject": "Two-step sign-in was turned off for your {site} account",
        "mail_second_factor_removed_intro": "Two-step sign-in was turned off for your account: your password alone signs you in now.",
        "mail_second_factor_removed_not_you": "If you did not do this, change your password and turn it on again in your settings:",
    ]
}
