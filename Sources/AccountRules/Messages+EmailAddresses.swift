// Messages+EmailAddresses.swift: English wording of the email addresses page (helper A).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishEmailAddresses: [String: String] = [
        // The page.
        "emails_intro": "You can sign in with any verified address. Mail about your account goes to the primary address.",
        "emails_list_caption": "Your email addresses",
        "emails_column_address": "Address",
        "emails_column_state": "State",
        "emails_column_actions": "Actions",
        "address_state_primary": "Primary",
        "address_state_verified": "Verified",
        "address_state_unverified": "Waiting for confirmation",
        "address_state_primary_unverified": "Primary, waiting for confirmation",
        "address_resend_button": "Send the link again",
        "address_make_primary_button": "Make primary",
        "address_remove_button": "Remove",
        "address_add_title": "Add an address",
        "address_add_text": "We will send a link to the new address. It can be used once you have followed that link.",
        "address_add_button": "Add address",

        // Field errors on the add form ("Email …").
        "address_already_yours": "is already one of your addresses",
        "address_unavailable": "can't be added to your account",
        "address_limit": "can't be added: an account can hold at most {count} addresses",

        // Flash messages.
        "address_added": "Address added. Follow the link we sent to it to confirm it.",
        "address_confirmed": "The address is confirmed. You can sign in with it now.",
        "address_removed": "Address removed.",
        "address_resent": "If the address still waits for confirmation, a new link is on its way.",
        "address_primary_changed": "Your primary address was changed. We told the previous one.",
        "address_last_verified": "You can't remove your only verified address. Add and confirm another one first.",
        "address_primary_remove": "You can't remove your primary address. Make another verified address primary first.",
        "address_unverified_primary": "Only a confirmed address can become primary. Follow the link we sent to it first.",
        "address_not_found": "That address is not part of your account.",
    ]
}
