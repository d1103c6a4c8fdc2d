// Flash.swift: one-shot messages carried across a redirect in a short-lived cookie holding a catalog key.
// `Flash` is the message; `FlashMessages` sets and takes it for one request (`context.flash`).

/// A message shown once on the next page. Only known keys are accepted back, so the cookie cannot inject text.
public struct Flash: Sendable, Equatable {
    /// `notice` for good news, `alert` for problems (the CSS colours them).
    public enum Kind: String, Sendable { case notice, alert }

    public var key: String
    public var kind: Kind
    /// The configured provider the message names (`{provider}`), if any.
    public var provider: String?

    public static let cookieName = "frontdoor_flash"

    /// The messages that may travel in the cookie, with their kind.
    static let known: [String: Kind] = [
        "language_changed": .notice,
        // Admin: a person's page (AdminPersonActions; the wording is in Messages+AdminPeople).
        "admin_person_session_revoked": .notice, "admin_person_sessions_revoked": .notice, "admin_person_unlinked": .notice,
        "admin_person_second_factor_reset": .notice, "admin_person_second_factor_none": .notice, "admin_person_group_added": .notice,
        "admin_person_group_removed": .notice, "admin_person_locked": .notice, "admin_person_unlocked": .notice,
        "admin_person_reset_sent": .notice, "admin_person_confirmation_sent": .notice, "admin_person_confirmed": .notice,
        "admin_person_confirm_none": .notice, "admin_person_deleted": .notice,
        "admin_person_session_not_found": .alert, "admin_person_unlink_last_method": .alert, "admin_person_unlink_not_linked": .alert,
        "admin_person_group_unknown": .alert, "admin_person_group_missing": .alert, "admin_person_lock_duration_invalid": .alert,
        "admin_person_self_lock": .alert, "admin_person_self_delete": .alert, "admin_person_reset_unconfirmed": .alert,
        "admin_person_reset_locked": .alert, "admin_person_mail_throttled": .alert, "admin_person_address_not_pending": .alert,
        "admin_person_reason_missing": .alert, "admin_person_self_admin_group": .alert, "admin_groups_admin_group": .alert,
        "signed_in": .notice, "signed_up": .notice, "signed_out": .notice, "sign_in_required": .alert,
        "confirmed": .notice, "password_changed": .notice, "confirmed_provider_unlinked": .alert,
        // Settings (self-service).
        "profile_updated": .notice, "password_updated": .notice,
        "address_added": .notice, "address_confirmed": .notice, "address_removed": .notice, "address_resent": .notice,
        "address_primary_changed": .notice, "address_last_verified": .alert, "address_primary_remove": .alert,
        "address_unverified_primary": .alert, "address_not_found": .alert,
        "session_revoked": .notice, "sessions_revoked_others": .notice, "account_deleted": .notice,
        "reauthentication_required": .alert, "reauthenticated": .notice,
        // Several accounts in one browser.
        "switched_account": .notice, "signed_out_all": .notice, "signed_out_one": .notice, "too_many_accounts": .alert,
        // Social sign-in (with a provider id: "key|github"; the name shown comes from the configuration).
        "social_cancelled": .alert, "social_failed": .alert, "social_state_invalid": .alert, "social_pending_invalid": .alert,
        "social_identity_taken": .alert, "social_already_linked": .alert, "social_wrong_account": .alert,
        "social_last_method": .alert, "social_signed_up": .notice, "social_linked": .notice, "social_unlinked": .notice,
        "social_sign_up_closed": .alert, "social_invitation_required": .alert, "unconfirmed": .alert,
        // Two-step sign-in (settings/two_step).
        "two_step_turned_on": .notice, "two_step_turned_off": .notice, "two_step_already_on": .alert, "two_step_off": .alert,
        "two_step_not_begun": .alert,
        // The second step of a sign-in, and the step-up (sign_in/second_factor).
        "second_factor_expired": .alert, "second_factor_passed": .notice, "second_factor_enrol_required": .alert,
        // Passkeys.
        "passkey_added": .notice, "passkey_renamed": .notice, "passkey_removed": .notice, "passkey_last_method": .alert,
        "passkey_invalid": .alert, "passkey_challenge_invalid": .alert, "passkey_exists": .alert, "passkey_too_many": .alert,
        "passkey_name_missing": .alert,
        // OpenID Connect: settings → Connected apps.
        "apps_revoked": .notice,
        // Admin: invitations, groups (Admin/Lists/).
        "admin_invitations_sent": .notice, "admin_invitations_revoked": .notice, "admin_invitations_not_found": .alert,
        "admin_invitations_closed": .alert, "admin_groups_created": .notice, "admin_groups_removed": .notice,
        "admin_groups_unknown": .alert,
    ]

    public init(_ key: String, kind: Kind = .notice, provider: String? = nil) {
        self.key = key
        self.kind = kind
        self.provider = provider
    }

    /// The cookie's value: the key, then `|provider` when there is one.
    var cookieValue: String { provider.map { key + "|" + $0 } ?? key }

    /// The flash a cookie value names, if it is a known one (a provider part must look like a provider id).
    init?(cookieValue: String) {
        let parts = cookieValue.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let kind = Self.known[parts[0]] else { return nil }
        if parts.count == 2 {
            guard SocialProvidersConfig.isValidID(parts[1]) else { return nil }
        }
        self.init(parts[0], kind: kind, provider: parts.count == 2 ? parts[1] : nil)
    }
}

/// The flash of one request: `set` shows a message on the next page; `take` reads the one the previous response
/// left, and clears it so it shows once. The cookie lives two minutes (long enough for a redirect).
struct FlashMessages {
    let cookies: CookieJar

    /// Shows `flash` on the next page.
    func set(_ flash: Flash) { cookies.set(Flash.cookieName, flash.cookieValue, maxAge: 120) }

    /// The flash sent by the previous response, cleared so it shows once.
    func take() -> Flash? {
        guard let value = cookies[Flash.cookieName], !value.isEmpty else { return nil }
        cookies.set(Flash.cookieName, "", maxAge: 0)
        return Flash(cookieValue: value)
    }
}
