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
