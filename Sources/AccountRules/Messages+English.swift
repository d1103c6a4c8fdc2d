// Messages+English.swift: the English catalog, the one every other language starts from.

extension MessageCatalog {
    /// English wording of every message.
    public static let english = MessageCatalog(strings: englishBrowserID.merging(englishInvitations) { first, _ in first }.merging(englishSettings) { first, _ in first }
        .merging(englishEmailAddresses) { first, _ in first }.merging(englishAccountSettings) { first, _ in first }
        .merging(englishProfile) { first, _ in first }.merging(englishSocial) { first, _ in first }
        .merging(englishSecondFactor) { first, _ in first }
        .merging(englishOneTimeCodes) { first, _ in first }
        .merging(englishAPI) { first, _ in first }.merging(englishPage) { first, _ in first }.merging(englishGroups) { first, _ in first }.merging(englishUsername) { first, _ in first }
        .merging(englishPasskeys) { first, _ in first }.merging(englishOpenID) { first, _ in first }
        .merging(englishOpenIDDevice) { first, _ in first }
        .merging(englishOpenIDLogout) { first, _ in first }
        .merging(englishAdmin) { first, _ in first }.merging(englishAdminPeople) { first, _ in first }.merging(englishAdminLists) { first, _ in first }.merging(englishAdminHealth) { first, _ in first }.merging([
        // Validation (Rails/Devise wording): "{attribute} {message}".
        "error_full_message": "{attribute} {message}",
        "blank": "can't be blank",
        "too_short": "is too short (minimum is {count} characters)",
        "common_password": "is one of the most common passwords: choose one that is harder to guess",
        "too_long": "is too long (maximum is {count} characters)",
        "invalid_email": "is not a valid email address",
        "invalid": "is invalid",
        "confirmation": "doesn't match {attribute}",
        "taken": "has already been taken",
        "inclusion": "is not one of the choices",
        "form_has_errors": "Please correct the problems below.",

        // Field names.
        "field_email": "Email",
        "field_password": "Password",
        "field_password_confirmation": "Password confirmation",
        "field_remember_me": "Remember me on this device",

        // Sign in.
        "sign_in_title": "Sign in",
        "sign_in_button": "Sign in",
        "sign_in_failed": "Invalid email or password.",
        "sign_in_link": "Already have an account? Sign in",
        "signed_in": "Signed in successfully.",
        "sign_in_required": "Please sign in to continue.",

        // Sign up.
        "sign_up_title": "Create your account",
        "sign_up_button": "Create account",
        "sign_up_link": "No account yet? Create one",
        "signed_up": "Welcome! Your account has been created.",
        "password_hint": "At least {count} characters.",

        // Home and sign out.
        "home_title": "Your account",
        "signed_in_as": "Signed in as {email}",
        "sign_out_button": "Sign out",
        "signed_out": "Signed out.",

        // Confirmation.
        "check_email_title": "Check your email",
        "check_email_text": "We have sent a message to the address you gave. Follow the link in it to confirm your address, then sign in.",
        "confirmed": "Your email address has been confirmed. You can sign in now.",
        "unconfirmed": "You have to confirm your email address before signing in.",
        "confirmation_invalid_title": "This link does not work",
        "confirmation_invalid_text": "The confirmation link is invalid, was already used or has expired. Ask for a new one below.",
        "resend_confirmation_title": "Resend the confirmation link",
        "resend_confirmation_button": "Send a new link",
        "resend_confirmation_link": "Didn't get the confirmation mail?",
        "resend_confirmation_sent": "If that address is waiting for confirmation, a new link is on its way.",

        // Password reminder and reset.
        "reminder_title": "Forgot your password?",
        "reminder_text": "Enter your email address and we will send you a link to choose a new password.",
        "reminder_button": "Send the link",
        "reminder_link": "Forgot your password?",
        "reminder_sent": "If that address has an account, a link to reset the password is on its way. It works for one hour.",
        "reset_title": "Choose a new password",
        "reset_button": "Change my password",
        "reset_invalid_title": "This link does not work",
        "reset_invalid_text": "The password reset link is invalid, was already used or has expired. Ask for a new one below.",
        "password_changed": "Your password has been changed. You are signed in.",
        "field_new_password": "New password",

        // Mail.
        "mail_greeting": "Hello,",
        "mail_confirmation_subject": "Confirm your email address for {site}",
        "mail_confirmation_intro": "Please confirm your email address by following this link:",
        "mail_confirmation_button": "Confirm my address",
        "mail_confirmation_ignore": "If you did not create an account, you can ignore this message.",
        "mail_sign_up_attempt_subject": "Someone tried to sign up for {site} with your address",
        "mail_sign_up_attempt_intro": "Someone, perhaps you, tried to create an account with this email address, which already has one.",
        "mail_sign_up_attempt_sign_in": "To sign in:",
        "mail_sign_up_attempt_reset": "If you forgot your password, reset it here:",
        "mail_sign_up_attempt_ignore": "If it was not you, you can ignore this message; nothing has changed.",
        "mail_password_reset_subject": "Reset your password for {site}",
        "mail_password_reset_intro": "Someone asked to reset the password of your account. To choose a new password, follow this link (it works for one hour):",
        "mail_password_reset_button": "Choose a new password",
        "mail_password_reset_ignore": "If you did not ask for this, you can ignore this message; your password stays the same.",
        "mail_account_locked_subject": "Your {site} account was locked",
        "mail_account_locked_intro": "There were several failed attempts to sign in to your account, so it is locked for a while. It unlocks by itself; you do not need to do anything.",
        "mail_account_locked_reset": "If these attempts were not yours, choose a new password now (this link also unlocks the account):",
        "mail_account_locked_button": "Choose a new password",
        "mail_invitation_subject": "You are invited to {site}",
        "mail_invitation_intro": "You are invited to create an account with this email address. Follow this link to sign up:",
        "mail_invitation_button": "Create my account",
        "mail_invitation_ignore": "If you did not expect this, you can ignore this message.",
        "mail_password_changed_subject": "Your {site} password was changed",
        "mail_password_changed_intro": "The password of your account was just changed, and every other session was signed out.",
        "mail_password_changed_not_you": "If this was not you, reset your password right away:",

        // Errors shown as pages.
        "error_title": "Something went wrong",
        "error_not_found": "There is no page at this address.",
        "error_method_not_allowed": "This page cannot be used that way.",
        "error_forbidden_csrf": "This form has expired or was not sent from this site. Go back, reload the page and try again.",
        "error_payload_too_large": "What was sent is too large.",
        "error_bad_request": "The request could not be understood.",
        "sign_up_rate_limited_title": "Please try again later",
        "sign_up_rate_limited_text": "Too many accounts were created from your network in the last while. Please try again later.",
        "error_internal": "Something went wrong on our side. Please try again in a moment.",
        "error_unavailable": "We can't save changes right now, so nothing was changed. Please try again in a few minutes.",
        "error_back_home": "Go to the start page",
    ]) { first, _ in first })
}
