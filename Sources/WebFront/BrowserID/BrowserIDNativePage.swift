// BrowserIDNativePage.swift: the page a native app opens in a web view (BrowserID-iOS's BrowserIDViewController)
// to get an assertion for its own origin, handed back through a `browserid-origin://` navigation the app intercepts.
// Options: query/form `origin` (or `data`, as the seed's shim names it): an http(s) origin, URL-encoded, with or
// without the trailing slash (`http://my.app/`); form `email` (one of the person's confirmed addresses), `csrf_token`.
// Config `browserid.allowed_origins`: only the origins listed there get assertions here; with the list empty (the
// default) the bridge is not there at all (404 for GET and POST), and an origin not listed gets 404 too. Why a list
// and not any origin: the page hands the assertion to whoever handles `browserid-origin://`, and any app can register
// that scheme and open this page in the person's own browser (signed in, Sec-Fetch-Site `none`) for a site of its
// choosing; unlike the popup dialog, where the audience is the opener's real origin, here the requester names it.
// Besides: the page can't be framed (frame-ancestors 'none', X-Frame-Options DENY: the default headers), a
// navigation started by another site is refused (`Sec-Fetch-Site: cross-site`: 403), and the person sees the origin
// before confirming with a POST that needs the CSRF token.
// The assertion: a fresh RSA-2048 key, certified for the chosen address with the ephemeral lifetime, signs
// {"aud": origin, "exp": now + 2 minutes}; the private key is dropped with the request. Each session gets at most
// NativeAssertionLimit's few assertions in its window (429 past it), since each costs a key generation. Callbacks:
// `browserid-origin://didSucceedWithAssertion?data=<cert~assertion>`, `browserid-origin://didCancel`.
import AccountCore
import AccountRules
import BrowserID
import Foundation

/// `GET|POST <base>/browserid/native`: choose a confirmed address for an app's origin, then return to the app.
struct BrowserIDNativePage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let addresses: EmailAddresses
    let clock: any Clock
    /// Assertions per session (in this process: the table is built once).
    let limit: NativeAssertionLimit
    init(_ core: AccountServices) {
        (addresses, clock) = (core.addresses, core.clock)
        limit = NativeAssertionLimit(clock: core.clock)
    }

    /// How long an assertion made here may be presented to the app's verifier.
    static let assertionLifetime: TimeInterval = 120
    static let callbackScheme = "browserid-origin"
    static let cancelURL = callbackScheme + "://didCancel"

    /// The dialog: sign in first if needed, then pick an address for the origin.
    func show(_ context: RequestContext) throws -> Response {
        let origin = try Self.origin(context, context.query["origin"] ?? context.query["data"])
        return try render(context, origin: origin)
    }

    /// Confirmation: a certificate and an assertion for the origin, then the page that navigates to the callback.
    func submit(_ context: RequestContext) throws -> Response {
        guard let services = context.site.browserID else { throw HTTPError.notFound }
        let origin = try Self.origin(context, context.form["origin"])
        guard let session = try context.session() else { return try render(context, origin: origin) }
        guard let address = try addresses.verified(context.form["email"] ?? "", of: session.accountId) else {
            return try render(context, origin: origin, problem: context.catalog.text("browserid_native_choose_address"), status: 422)
        }
        guard limit.take(for: session.digest) else {
            context.site.logger.notice("browserid native assertion refused: too many for this session",
                                       metadata: ["account": "\(session.accountId)", "origin": "\(origin)"])
            var refused = try render(context, origin: origin, problem: context.catalog.text("browserid_native_rate_limited"), status: 429)
            refused.headers.append((name: "Retry-After", value: String(Int(limit.retryAfter(for: session.digest).rounded(.up)))))
            return refused
        }
        let key = try RSASigningKey.generate()
        let certificate = try services.provider.certify(email: address.address, publicKey: key.publicKey, ephemeral: true)
        let expires = clock.now().addingTimeInterval(Self.assertionLifetime)
        let assertion = try IdentityAssertion.sign(audience: origin, expiresAt: expires, key: key)
        let bundle = IdentityAssertion.bundle(certificates: [certificate], assertion: assertion)
        context.site.logger.info("browserid native assertion issued", metadata: ["account": "\(session.accountId)", "origin": "\(origin)"])
        return try context.layout.page("browserid/native_dialog", [
            "done": true, "rp_origin": origin, "cancel_url": Self.cancelURL,
            "callback": Self.callbackScheme + "://didSucceedWithAssertion?data=" + FormData.encode(bundle),
        ])
    }

    /// The form (signed in: the confirmed addresses; signed out: sign in, coming back here).
    private func render(_ context: RequestContext, origin: String, problem: String? = nil, status: Int = 200) throws -> Response {
        guard context.site.browserID != nil else { throw HTTPError.notFound }
        var values: [String: Any] = [
            "done": false, "rp_origin": origin, "cancel_url": Self.cancelURL, "signed_in": false,
            "action": context.site.paths.path("browserid/native"),
            "sign_in_action": context.site.paths.path("sign_in"),
            "rd": context.site.paths.path("browserid/native") + "?origin=" + FormData.encode(origin),
            "problem": problem ?? false,
        ]
        if let session = try context.session() {
            let verified = try addresses.all(of: session.accountId).filter { $0.verifiedAt != nil }
            let chosen = context.form["email"].map(EmailFormat.normalized)
            let selected = verified.first { EmailFormat.normalized($0.address) == chosen } ?? verified.first
            values["signed_in"] = true
            values["emails"] = verified.map { ["address": $0.address, "selected": $0.id == selected?.id] }
            values["no_verified_email"] = verified.isEmpty
        }
        return try context.layout.page("browserid/native_dialog", values, status: status)
    }

    /// The origin the app asks for, normalized (`scheme://host[:port]`): 404 while `allowed_origins` lists none (the
    /// bridge is off), 400 unless it is an http(s) origin, 404 when the list does not name it, 403 when another site
    /// started this navigation.
    static func origin(_ context: RequestContext, _ raw: String?) throws -> String {
        let configuration = context.site.configuration.browserID
        guard !BrowserIDDialogPage.listedOrigins(configuration).isEmpty else { throw HTTPError.notFound }
        guard let origin = parse(raw) else { throw HTTPError(status: 400, messageKey: "browserid_native_bad_origin") }
        guard configuration.allowsOrigin(origin) else {
            context.site.logger.notice("browserid native origin not listed", metadata: ["origin": "\(origin)"])
            throw HTTPError(status: 404, messageKey: "browserid_native_origin_refused")
        }
        guard context.request.header("Sec-Fetch-Site")?.lowercased() != "cross-site" else {
            context.site.logger.notice("browserid native navigation from another site refused", metadata: ["origin": "\(origin)"])
            throw HTTPError(status: 403, messageKey: "browserid_native_origin_refused")
        }
        return origin
    }

    /// `http://my.app`, `http://my.app/` or either URL-encoded once more → `http://my.app`; a path, query, fragment,
    /// user or another scheme → nil.
    static func parse(_ raw: String?) -> String? {
        guard var text = raw?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.utf8.count <= 512 else { return nil }
        if !text.contains("://"), let decoded = text.removingPercentEncoding, decoded.contains("://") { text = decoded }
        guard let components = URLComponents(string: text), components.query == nil, components.fragment == nil,
              components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/" else { return nil }
        return RelyingPartyOrigin.of(text)
    }
}
