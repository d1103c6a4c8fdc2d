// Messages+Invitations.swift: English wording of sign-up modes and invitations (`signup = open|invite|closed`).

extension MessageCatalog {
    /// English wording of invite-only and closed sign-up; merged into `english` (a key there must not repeat here).
    static let englishInvitations: [String: String] = [
        "not_invited": "is not the address this invitation is for",
        "invited_hint": "You were invited with this address.",
        "invitation_only_title": "Sign-up is by invitation only",
        "invitation_only_text": "New accounts can only be created with an invitation. If you have one, follow the link in your invitation.",
        "invitation_invalid_title": "This invitation does not work",
        "invitation_invalid_text": "The invitation link is invalid, was already used or has expired. Ask for a new invitation.",
        "sign_up_closed_title": "Sign-up is closed",
        "sign_up_closed_text": "New accounts cannot be created here. Ask the administrator of this site for an account.",
    ]
}
