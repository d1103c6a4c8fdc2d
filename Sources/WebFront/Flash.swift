// Flash.swift: one-shot messages carried across a redirect in a short-lived cookie holding a catalog key.

/// A message shown once on the next page. Only known keys are accepted back, so the cookie cannot inject text.
public struct Flash: Sendable, Equatable {
    /// `notice` for good news, `alert` for problems (the CSS colours them).
    public enum Kind: String, Sendable { case notice, alert }

    public var key: String
    public var kind: Kind

    public static let cookieName = "frontdoor_flash"

    /// The messages that may travel in the cookie, with their kind.
    static let known: [String: Kind] = [
        "signed_in": .notice, "signed_up": .notice, "signed_out": .notice, "sign_in_required": .alert,
        "confirmed": .notice, "password_changed": .notice,
        // Settings (self-service).
        "profile_updated": .notice, "password_updated": .notice,
        "address_added": .notice, "address_confirmed": .notice, "address_removed": .notice, "address_resent": .notice,
        "address_primary_changed": .notice, "address_last_verified": .alert, "address_primary_remove": .alert,
        "address_unverified_primary": .alert, "address_not_found": .alert,
        "session_revoked": .notice, "sessions_revoked_others": .notice, "account_deleted": .notice,
        "reauthentication_required": .alert, "reauthenticated": .notice,
        // Several accounts in one browser.
        "switched_account": .notice, "signed_out_all": .notice, "signed_out_one": .notice, "too_many_accounts": .alert,
    ]

    public init(_ key: String, kind: Kind = .notice) {
        self.key = key
        self.kind = kind
    }

    /// The flash a cookie value names, if it is a known one.
    init?(cookieValue: String) {
        guard let kind = Self.known[cookieValue] else { return nil }
        self.init(cookieValue, kind: kind)
    }
}
