// CSRF.swift: form tokens tied to the session (or, before sign-in, to a pre-session cookie).
//
// A token is HMAC-SHA256(server key, binding): the binding is the session's digest when signed in,
// otherwise the random value of the `frontdoor_csrf` cookie. Nothing per form is stored; checking is
// constant-time. A POST whose token matches neither binding is refused with 403 before any change.
import Crypto
import AccountCore
import Encodings
import Foundation

/// Issues and checks CSRF tokens.
public struct CSRF: Sendable {
    /// Name of the hidden form field.
    public static let fieldName = "csrf_token"
    /// Name of the pre-session cookie.
    public static let cookieName = "frontdoor_csrf"

    private let key: SymmetricKey

    /// - Parameter key: the server's CSRF secret (kept in the database, see `AppDatabase.secret(named:random:)`).
    public init(key: [UInt8]) { self.key = SymmetricKey(data: key) }

    /// The token for forms shown to a browser with `binding`.
    public func token(binding: some DataProtocol) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Self.message(binding), using: key))
    }

    /// True when `token` was issued for `binding` (constant-time comparison).
    public func isValid(_ token: String, binding: some DataProtocol) -> Bool {
        guard let mac = Base64URL.decode(token, allowingPadding: true), mac.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Self.message(binding), using: key)
    }

    private static func message(_ binding: some DataProtocol) -> Data { Data("frontdoor-csrf-v1:".utf8) + Data(binding) }
}
