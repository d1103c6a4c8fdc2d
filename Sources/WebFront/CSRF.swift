// CSRF.swift: form tokens tied to the session (or, before sign-in, to a pre-session cookie), and their check.
//
// A token is HMAC-SHA256(server key, binding): the binding is the session's digest when signed in, otherwise the
// random value of the pre-session cookie `frontdoor_csrf`. Nothing per form is stored; checking is constant-time.
// `CSRF` is the token arithmetic (one per site, holding the key); `CSRFGuard` applies it to one request.
//
// Where: in one place, the responder (Frontdoor.swift), before the handler of every request other than GET and HEAD
// on a route whose kind (`RouteKind`, Routes.swift) is a browser form. Pages only put `token()` in their forms; the
// JSON API reads no cookie and needs no token.
//
// What counts:
// - With a live session, only the session-bound token. A pre-session pair is only a double-submit cookie, and a
//   sibling subdomain (session.cookie_domain's layout; same-site, so SameSite=Lax does not stop its POSTs) can plant
//   the cookie half of a pair it fetched itself with a longer Path, which the browser sends first.
// - Without one, the token of the pre-session cookie, which is host-bound (see CookieJar): over https it is
//   `__Host-frontdoor_csrf` (Path=/, no Domain, Secure), which browsers take only from this host, and the plain name
//   is never read; over plain http (development) it keeps its name under the base path. Either way a request that
//   carries the name twice is refused. Over plain http a sibling can still plant it in a browser that has none yet
//   (a sign-in into the attacker's account): production runs over https.
// A token that matches nothing is refused with 403 before any change, and logged (the path only).
import Crypto
import AccountCore
import Encodings
import Foundation

/// Issues and checks CSRF tokens.
public struct CSRF: Sendable {
    /// Name of the hidden form field.
    public static let fieldName = "csrf_token"
    /// Name of the pre-session cookie (over https with the `__Host-` prefix, see CookieJar.hostBound).
    public static let cookieName = "frontdoor_csrf"

    private let key: SymmetricKey
    /// The HMAC with the key already set up and the message's prefix taken in: each token copies it (a value), so
    /// the key schedule is not redone on every page.
    private let keyed: HMAC<SHA256>

    /// - Parameter key: the server's CSRF secret (kept in the database, see `AppDatabase.secret(named:random:)`).
    public init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
        var keyed = HMAC<SHA256>(key: self.key)
        keyed.update(data: Self.prefix)
        self.keyed = keyed
    }

    /// The token for forms shown to a browser with `binding`.
    public func token(binding: some DataProtocol) -> String {
        var mac = keyed
        mac.update(data: binding)
        return mac.finalize().withUnsafeBytes { Base64URL.encode(Array($0)) }
    }

    /// True when `token` was issued for `binding` (constant-time comparison).
    public func isValid(_ token: String, binding: some DataProtocol) -> Bool {
        guard let mac = Base64URL.decode(token, allowingPadding: true), mac.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Self.message(binding), using: key)
    }

    /// Bytes, not Data: a Data constant's storage hides behind an enum's spare bits, where LeakSanitizer (the fuzz
    /// runs) does not see the global that keeps it and reports it leaked.
    private static let prefix = Array("frontdoor-csrf-v1:".utf8)
    private static func message(_ binding: some DataProtocol) -> Data { Data(prefix) + Data(binding) }
}

/// The CSRF side of one request: the token its forms carry, and the check of a posted one.
struct CSRFGuard {
    let context: RequestContext

    /// The CSRF token for forms on this page; sets the pre-session cookie when signed out and it is missing.
    func token() throws -> String {
        let site = context.site
        if let session = try context.session() { return site.csrf.token(binding: session.digest) }
        // A binding made earlier in this request (queued), else the browser's.
        let cookies = context.cookies
        if let binding = Self.binding(cookies.queuedHostBound(CSRF.cookieName) ?? cookies.hostBoundValue(CSRF.cookieName)) {
            return site.csrf.token(binding: binding)
        }
        let binding = context.core.random.bytes(32)
        cookies.setHostBound(CSRF.cookieName, Base64URL.encode(binding))
        return site.csrf.token(binding: binding)
    }

    /// Throws `HTTPError.forbiddenCSRF` unless the form's token matches this browser's live session or, only when it
    /// has none, its pre-session cookie.
    func verify() throws {
        let site = context.site
        guard let token = context.form[CSRF.fieldName], !token.isEmpty else { throw HTTPError.forbiddenCSRF }
        if let session = try context.session() {
            if site.csrf.isValid(token, binding: session.digest) { return }
        } else if let binding = Self.binding(context.cookies.hostBoundValue(CSRF.cookieName)), site.csrf.isValid(token, binding: binding) {
            return
        }
        site.logger.notice("csrf token refused", metadata: ["path": "\(context.request.path)"])
        throw HTTPError.forbiddenCSRF
    }

    /// A cookie value that is a binding: 32 bytes in base64url.
    private static func binding(_ value: String?) -> [UInt8]? {
        guard let bytes = value.flatMap({ Base64URL.decode($0, allowingPadding: true) }), bytes.count == 32 else { return nil }
        return bytes
    }
}
