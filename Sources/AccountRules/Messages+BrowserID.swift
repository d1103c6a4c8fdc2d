// Messages+BrowserID.swift: English wording of the BrowserID dialog and the pages include.js opens.

extension MessageCatalog {
    /// English wording of the BrowserID pages; merged into `english` (a key there must not repeat here).
    static let englishBrowserID: [String: String] = [
        "browserid_dialog_title": "Sign in with your email",
        "browserid_site_asks": "Signing in to",
        "browserid_sign_in_first": "Sign in to your account first; then choose the address to give the site.",
        "browserid_choose_email": "Which address should the site see?",
        "browserid_not_my_computer": "This is not my computer (stay signed in to the site for one hour only)",
        "browserid_continue": "Continue",
        "browserid_cancel": "Cancel",
        "browserid_no_verified_email": "Your account has no confirmed email address yet. Confirm one, then try again.",
        "browserid_waiting": "Waiting for the site…",
        "browserid_working": "Signing you in…",
        "browserid_failed": "Signing in did not work. Please try again.",
        "browserid_no_opener": "This window was not opened by a site. Close it and start from the site.",
        "browserid_site_not_allowed": "This site may not use this sign-in. Close this window.",
        // The native bridge (browserid/native): an app's web view.
        "browserid_native_returning": "Signed in. Returning to the app…",
        "browserid_native_return": "Return to the app",
        "browserid_native_choose_address": "Choose one of your confirmed addresses.",
        "browserid_native_bad_origin": "This sign-in link does not name a website (an http or https origin such as https://example.com).",
        "browserid_native_origin_refused": "This site may not ask for a sign-in here.",
        "browserid_native_rate_limited": "Too many sign-ins for apps in a short time. Wait a few minutes, then try again.",
    ]
}
