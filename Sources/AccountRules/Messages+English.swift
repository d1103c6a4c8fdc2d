// Messages+English.swift: the English catalog, the one every other language starts from.

extension MessageCatalog {
    /// English wording of every message.
    public static let english = MessageCatalog(strings: [
        // Validation (Rails/Devise wording): "{attribute} {message}".
        "error_full_message": "{attribute} {message}",
        "blank": "can't be blank",
        "too_short": "is too short (minimum is {count} characters)",
        "too_long": "is too long (maximum is {count} characters)",
        "invalid_email": "is not a valid email address",
        "invalid": "is invalid",
        "confirmation": "doesn't match {attribute}",
        "taken": "has already been taken",
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

        // Errors shown as pages.
        "error_title": "Something went wrong",
        "error_not_found": "There is no page at this address.",
        "error_method_not_allowed": "This page cannot be used that way.",
        "error_forbidden_csrf": "This form has expired or was not sent from this site. Go back, reload the page and try again.",
        "error_payload_too_large": "What was sent is too large.",
        "error_bad_request": "The request could not be understood.",
        "error_internal": "Something went wrong on our side. Please try again in a moment.",
        "error_back_home": "Go to the start page",
    ])
}
