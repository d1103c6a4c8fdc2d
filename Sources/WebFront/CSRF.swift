// CSRF.swift: form tokens tied to the session (or, before sign-in, to a pre-session cookie).
//
// A token is HMAC-SHA256(server key, binding): the binding is the session's digest when signed in,
// otherwise the random value of the `frontdoor_csrf` cookie. Nothing per form is stored; checking is
// constant-time. A POST whose token matches neither binding is refused with 403 before any change.
// `CSRF` is the token arithmetic (one per site, holding the key); `CSRFGuard` applies it to one request.
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

/// The CSRF side of one request: the token its forms carry, and the check of a posted one.
struct CSRFGuard {
    let context: RequestContext

    /// The CSRF token for forms on this page; sets the pre-session cookie when signed out and it is missing.
    func token() throws -> String {
        let site = context.site
        if let session = try context.session() { return site.csrf.token(binding: session.digest) }
        // A binding made earlier in this request (queued), else the browser's.
        for cookie in [context.cookies.queued(CSRF.cookieName), context.cookies[CSRF.cookieName]] {
            if let binding = cookie.flatMap({ Base64URL.decode($0, allowingPadding: true) }), binding.count == 32 {
                return site.csrf.token(binding: binding)
            }
        }
        let binding = context.core.random.bytes(32)
        context.cookies.set(CSRF.cookieName, Base64URL.encode(binding))
        return site.csrf.token(binding: binding)
    }

    /// Throws `HTTPError.forbiddenCSRF` unless the form's token matches this browser's session or pre-session cookie.
    func verify() throws {
        let site = context.site
        guard let token = context.form[CSRF.fieldName], !token.isEmpty else { throw HTTPError.forbiddenCSRF }
        if let session = try context.session(), site.csrf.isValid(token, binding: session.digest) { return }
        if let binding = context.cookies[CSRF.cookieName].flatMap({ Base64URL.decode($0, allowingPadding: true) }), binding.count == 32,
           site.csrf.isValid(token, binding: binding) { return }
        site.logger.notice("csrf token refused", metadata: ["path": "\(context.request.path)"])
        throw HTTPError.forbiddenCSRF
    }
}
