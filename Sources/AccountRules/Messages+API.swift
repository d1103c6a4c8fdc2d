// Messages+API.swift: English wording of the JSON API for native apps and of email residences.

extension MessageCatalog {
    /// English wording of the JSON API and residences; merged into `english` (a key there must not repeat here).
    static let englishAPI: [String: String] = [
        // JSON API errors (devise-ios shows them as they are).
        "api_unauthenticated": "You need to sign in or sign up before continuing.",
        "api_validation_failed": "Validation failed: {messages}",
        "api_bad_request": "The request could not be understood: send a JSON object.",
        "api_unsupported_media_type": "Send the request body as application/json.",
        "api_reauthentication_required": "This needs a recent sign-in: sign in again, then retry.",
        "api_provider_not_configured": "Sign-in with {provider} is not set up on this server.",
        "api_provider_token_invalid": "The {provider} token could not be verified.",
        "api_provider_token_form_off": "{provider} sign-in from an app needs an authorization code (code, code_verifier and redirect_uri): this server does not take {provider} access tokens.",
        "api_provider_unreachable": "{provider} could not be reached. Please try again in a moment.",
        "api_social_address_held": "This address already has an account. Sign in to it, then connect {provider} in the account settings.",
        "api_social_no_email": "{provider} did not give a verified email address. Sign in with {provider} on the website once and give your address there, or sign up with your email address.",
        "api_not_found": "There is nothing at this address.",
        "api_method_not_allowed": "This address does not take that method.",
        "api_internal": "Something went wrong on our side. Please try again in a moment.",
        "api_sign_up_closed": "New accounts cannot be created here.",
        "api_invitation_required": "Sign-up needs an invitation.",
        // The second step of a sign-in (an account with a second factor).
        "api_second_factor_required": "Enter the code from your authenticator app (or a recovery code) to finish signing in.",
        "api_second_factor_invalid": "Invalid code.",
        "api_second_factor_expired": "This sign-in has expired or was already finished. Sign in again.",
        "api_second_factor_enrolment_required": "Two-step sign-in is required here: set it up in your account settings on the web, then sign in again.",
        "api_second_factor_browser_only": "This account’s second factor is a passkey, which apps cannot use. Sign in with a browser, or set up an authenticator app in your account settings.",
        "api_field_code": "Code",

        // Email residences.
        "residence_throttled": "A link was sent to this address a moment ago. Please wait a minute before asking again.",
        "residence_refused": "This address cannot be used to sign in here.",
        "residence_not_found": "There is no such request, or it has expired.",
        "residence_title": "Allow a device to sign in",
        "residence_text": "A device asked to sign in to {site} as {email}:",
        "residence_device": "{device}, from {address}",
        "residence_allow_button": "Allow this device",
        "residence_ignore": "If you did not ask for this, close this page: nothing happens unless you allow it.",
        "residence_approved_title": "Device allowed",
        "residence_approved_text": "Go back to the app: it can sign in as {email} now.",
        "residence_invalid_title": "This link does not work",
        "residence_invalid_text": "The link is invalid, was already used or has expired. Ask for a new one from the app.",
        "residence_refused_title": "This device cannot sign in",
        "mail_residence_subject": "Sign in to {site} on a device",
        "mail_residence_intro": "A device asked to sign in with this address:",
        "mail_residence_button": "Review and allow",
        "mail_residence_ignore": "If it was not you, ignore this message: nothing happens unless you allow it. The link works for one hour.",

        // Sessions page: API tokens.
        "session_api_token": "App token ({device})",
    ]
}
