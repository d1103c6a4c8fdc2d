// Messages+Social.swift: English wording of social sign-in: provider buttons, the behaviour table's outcomes, the
// pages that ask for an address or for the existing account, connected accounts in the settings, and its mails.
// `{provider}` is the provider's display name from the configuration.

extension MessageCatalog {
    /// English wording of social sign-in; merged into `english` (a key there must not repeat here).
    static let englishSocial: [String: String] = [
        "social_or": "or",
        "social_sign_in_with": "Sign in with {provider}",
        "social_sign_up_with": "Sign up with {provider}",
        "social_continue_with": "Continue with {provider}",

        // Outcomes (flash and page messages).
        "social_cancelled": "You cancelled signing in with {provider}.",
        "social_failed": "We couldn't sign you in with {provider}: it did not answer as expected. Nothing was changed; please try again later.",
        "social_state_invalid": "That sign-in attempt has expired or was already used. Please start again.",
        "social_pending_invalid": "That sign-in attempt has expired. Please start again.",
        "social_identity_taken": "This {provider} account is already linked to another account.",
        "social_already_linked": "A {provider} account is already linked to your account.",
        "social_wrong_account": "That {provider} account is not linked to this account.",
        "social_last_method": "You can't unlink {provider}: it is your only way to sign in. Set a password first.",
        "social_signed_up": "Welcome! Your account was created with {provider}.",
        "social_linked": "{provider} is now linked to your account.",
        "social_unlinked": "{provider} was unlinked from your account.",
        "social_sign_up_closed": "Sign-up is closed: {provider} is not linked to any account here.",
        "social_invitation_required": "Sign-up needs an invitation: {provider} is not linked to any account here.",

        // Asking for an address (no address or an unverified one from the provider).
        "social_email_title": "One more step",
        "social_email_text": "{provider} didn't give us a verified email address. Enter yours and we'll send you a link to confirm it.",
        "social_email_button": "Continue",

        // Linking to the existing account that holds the address.
        "social_link_title": "Link {provider} to your account",
        "social_link_text": "An account with {email} already exists here. Sign in to it to link your {provider} account: we never link accounts without you.",
        "social_link_button": "Sign in and link",
        "social_link_with": "Sign in with {provider} to link",
        "social_link_no_password": "This account has no password. Sign in with a provider linked to it, or set a password through \"Forgot your password?\".",

        // The picker: several accounts could take the identity.
        "social_pick_title": "Choose your account",
        "social_pick_text": "Your {provider} account could belong to more than one account here. Choose the one to link it to: you sign in to that account first, and {provider} is linked to it only.",
        "social_pick_signed_in_here": "signed in in this browser",
        "social_pick_button": "Link to this account",
        "social_pick_cancel": "Link none of them",

        // Settings: connected accounts.
        "settings_connections": "Connected accounts",
        "connections_title": "Connected accounts",
        "connections_text": "Accounts on other sites you can sign in with.",
        "connections_empty": "No account from another site is linked yet.",
        "connections_linked_at": "Linked",
        "connections_last_used": "Last used",
        "connections_never": "never",
        "connections_unlink_button": "Unlink",
        "connections_link_button": "Link {provider}",
        "connections_available": "Link another account",
        "connections_no_password": "Your account has no password: you sign in only with the accounts linked here.",

        // Setting a first password (accounts made through a provider).
        "password_set_title": "Set a password",
        "password_set_text": "Your account has no password yet: you sign in with a linked account. Set one to sign in with your email address too.",

        // Re-authentication with a provider.
        "reauthenticate_with": "Confirm with {provider}",

        // Mails.
        "mail_identity_linked_subject": "{provider} was linked to your {site} account",
        "mail_identity_unlinked_subject": "{provider} was unlinked from your {site} account",
        "mail_identity_linked_intro": "An account on another site was linked to your account. From now on it can be used to sign in:",
        "mail_identity_linked_not_you": "If you did not do this, unlink it in your settings and change your password:",
        "mail_identity_unlinked_intro": "An account on another site was unlinked from your account. It can no longer be used to sign in:",
        "mail_identity_unlinked_not_you": "If you did not do this, check the connected accounts in your settings:",

        // Addresses proven elsewhere: an identity linked while no address of the account was verified stays only if
        // the address is confirmed in the browser that signed in with the provider; reset page and mail name the links.
        "confirmed_provider_unlinked": "Your email address has been confirmed. {provider} was not linked to this account: the link was opened in another browser than the one that signed in with {provider}. If that {provider} account is yours, set a password through \"Forgot your password?\", sign in and link it in your settings.",
        "reset_linked_providers": "Sign-in with {providers} is also linked to this account. If one of them is not yours, unlink it in your settings once your password is set.",
        "mail_password_changed_providers": "Sign-in with these providers also opens your account:",
        "mail_password_changed_providers_not_you": "If one of them is not yours, unlink it in your settings:",
    ]
}
