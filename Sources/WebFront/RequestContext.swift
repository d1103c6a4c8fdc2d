// RequestContext.swift: one request's own state: the request, its language and catalog, query and form, client
// address, the session lookup and the return-target check. The concerns around it are small types a page asks for:
// `cookies` (CookieJar), `flash` (FlashMessages), `csrf` (CSRFGuard), `layout` (PageLayout) and `api` (APIContext: the
// JSON body and token authentication). Pages get their account operations at construction (Routes.table), not here.
//
// Options: `client.trusted_proxies` (whose X-Forwarded-For is believed), `client.ipv6_prefix`, `session.cookie_name`,
// `session.reauthenticate_after` (requireRecentSignIn), `session.secure_cookie` (see CookieJar).
import AccountCore
import AccountRules
import Foundation
import IPAddresses

/// The account operations every request of one Frontdoor shares, held by reference: AccountServices is a struct of some
/// forty services, and copying it into each request and destroying it after (a retain and a release per service) cost
/// more than the rest of a gate check's own work.
public final class SharedServices: Sendable {
    public let services: AccountServices
    public init(_ services: AccountServices) { self.services = services }
}

/// Per-request state, owned by one worker thread for the length of one request.
public final class RequestContext {
    public let request: Request
    public let site: Site
    /// The account operations the request's own state needs (session lookup, language preference, the recent-sign-in
    /// check, random bindings, API tokens): RequestContext and its extensions use it; pages hold their own.
    var core: AccountServices { shared.services }
    private let shared: SharedServices
    private var loadedSession: SessionInfo??
    /// The browser's other signed-in accounts, once read (see RequestContext+Accounts).
    var loadedOthers: [SignedInAccount]?
    /// The admin's session, once Admin/AdminAccess.swift let it in.
    var admittedAdmin: SessionInfo?

    /// A JSON API request (under `<base>/v1/`): no cookie is read, so its language comes from Accept-Language alone.
    public let isAPI: Bool

    public init(request: Request, site: Site, core: SharedServices, isAPI: Bool = false) {
        self.request = request
        self.site = site
        self.shared = core
        self.isAPI = isAPI
    }

    public convenience init(request: Request, site: Site, core: AccountServices, isAPI: Bool = false) {
        self.init(request: request, site: site, core: SharedServices(core), isAPI: isAPI)
    }

    /// The language of this request's page, messages and the mail it causes (see `Localization.choose`): the signed-in
    /// account's preference, the switcher's cookie, Accept-Language, the default.
    public lazy var language: String = {
        let localization = site.renderer.localization
        let accept = request.header("Accept-Language")
        guard !isAPI else { return localization.choose(preference: nil, cookie: nil, acceptLanguage: accept) }
        let preference = (try? session()).flatMap { $0 }.flatMap { try? core.profile.language(of: $0.accountId) }
        return localization.choose(preference: preference, cookie: cookies[LanguageAction.cookieName], acceptLanguage: accept)
    }()

    /// Every message in this request's language.
    public lazy var catalog: MessageCatalog = site.renderer.localization.catalog(language)

    /// The query string's parameters.
    public lazy var query: [String: String] = FormData.parse(request.query)

    /// The urlencoded body's fields (empty for other content types).
    public lazy var form: [String: String] = {
        let type = request.contentType?.lowercased() ?? ""
        return type.hasPrefix("application/x-www-form-urlencoded") ? FormData.parse(request.body) : [:]
    }()

    /// The cookies the browser sent, and the ones this response sets.
    public lazy var cookies = CookieJar(header: request.header("Cookie"), path: site.paths.cookiePath,
                                        secure: site.configuration.session.secureCookie == .always || request.isHTTPS)

    /// The one-shot message of the next page, and the one the previous response left.
    var flash: FlashMessages { FlashMessages(cookies: cookies) }

    /// This request's CSRF token and the check of a posted one.
    var csrf: CSRFGuard { CSRFGuard(context: self) }

    /// What every HTML page has around its own values.
    var layout: PageLayout { PageLayout(context: self) }

    /// User agent and address, recorded with sessions, audit rows and failed sign-ins.
    public var client: ClientInfo {
        ClientInfo(userAgent: request.header("User-Agent") ?? "", remoteAddress: clientAddress, language: language,
                   ipv6Prefix: site.configuration.client.ipv6Prefix)
    }

    /// The client's address: REMOTE_ADDR, or, when that is a trusted proxy (`client.trusted_proxies`, addresses and
    /// CIDR ranges), the nearest address in X-Forwarded-For that is not one (read from the right, since the left end is
    /// whatever the client sent). An address literal comes in canonical form (`::ffff:1.2.3.4` is `1.2.3.4`).
    public var clientAddress: String {
        let remote = IPAddress.canonical(request.remoteAddress ?? "")
        let trusted = site.configuration.client.trustedProxyList
        guard trusted.contains(remote), let forwarded = request.header("X-Forwarded-For") else { return remote }
        let hops = forwarded.split(separator: ",").map { IPAddress.canonical($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
        return hops.reversed().first { !trusted.contains($0) } ?? hops.first ?? remote
    }

    /// Whether an operator's backend asks: a request nginx marks with `fastcgi_param FRONTDOOR_INTERNAL 1` (an
    /// `internal` location), or one from `allowed` (metrics, provider tokens).
    func isInternalCaller(allowed: AddressList) -> Bool {
        request.isInternal || allowed.contains(clientAddress)
    }

    /// `raw` when it is a path on this site or a URL on an allowed host (see `ReturnTarget`), else the home page.
    public func returnTarget(_ raw: String?) -> String {
        ReturnTarget.checked(raw, fallback: site.paths.home, allowedHosts: site.allowedHosts)
    }

    // MARK: Session

    /// The session cookie's name in this request: host-bound (`__Host-<cookie_name>` when cookies are Secure, see
    /// CookieJar), so a sibling subdomain cannot plant its own session here, unless `session.cookie_domain` shares
    /// it with the siblings (a `__Host-` cookie can have no Domain) or the name already is a `__Host-` one. The
    /// plain name is not read over https, even from a browser that still holds one from before: that is the name
    /// a sibling can set.
    var sessionCookieName: String {
        let settings = site.configuration.session
        guard settings.cookieDomain.isEmpty, !settings.cookieName.hasPrefix("__Host-") else { return settings.cookieName }
        return cookies.hostBound(settings.cookieName)
    }

    /// The session cookie's value, if any; one sent twice is none (a planted one sent first would otherwise sign the
    /// browser in to someone else's account, and which of the two was planted cannot be told).
    public var sessionToken: String? { cookies.single(sessionCookieName) }

    /// The live session of this browser, or nil (looked up once per request).
    public func session() throws -> SessionInfo? {
        if let loadedSession { return loadedSession }
        let found = try sessionToken.flatMap { try core.sessions.find(token: $0) }
        loadedSession = .some(found)
        return found
    }

    /// For the page of a storage failure: a session that could not be read (the database down) counts as none, so
    /// the page renders without asking the database again.
    func treatUnreadSessionAsNone() {
        if loadedSession == nil { loadedSession = .some(nil) }
    }

    /// The live session, or a redirect to the sign-in page that comes back here (a GET's URI, else the home page).
    public func requireSession() throws -> SessionInfo {
        if let session = try session() { return session }
        let back = request.method == "GET" ? request.uri : site.paths.home
        throw HTTPError.redirect(to: site.paths.signIn(returnTo: back), afterPost: request.method == "POST")
    }

    /// The live session when its password was entered within `seconds` (default `session.reauthenticate_after`);
    /// otherwise a redirect to the page that asks it again, which then returns to `returnTo` (the page the change was
    /// made from).
    public func requireRecentSignIn(returnTo: String, within seconds: TimeInterval? = nil) throws -> SessionInfo {
        let session = try requireSession()
        let within = seconds ?? site.configuration.session.reauthenticateAfter
        guard try core.reauthentication.isRecent(session.digest, within: within) else {
            if request.method == "POST" { flash.set(Flash("reauthentication_required", kind: .alert)) }
            let location = site.paths.path("settings/reauthenticate") + "?rd=" + FormData.encode(returnTo)
            throw HTTPError.redirect(to: location, afterPost: request.method == "POST")
        }
        return session
    }

    /// Makes `session` (with its cookie `token`) the active one: the session cookie (`sessionCookieName`; for the whole host, Path=/, and
    /// with `session.cookie_domain` its subdomains, because nginx's gate reads it on the protected apps' requests too)
    /// lasts as long as a remembered session, else until the browser closes.
    func activate(token: String, session: SessionInfo?) {
        let settings = site.configuration.session
        let maxAge = session?.rememberMe == true ? Int(settings.rememberLifetime) : nil
        cookies.queue(SetCookie(name: sessionCookieName, value: session == nil ? "" : token, path: "/",
                                maxAge: session == nil ? 0 : maxAge, secure: false,
                                domain: settings.cookieDomain.isEmpty ? nil : settings.cookieDomain))
        loadedSession = .some(session)
    }

    /// A redirect to a path on this site (303 after a POST, 302 otherwise).
    public func redirect(to location: String) -> Response {
        Response(status: request.method == "POST" ? 303 : 302, headers: [(name: "Location", value: location)])
    }
}
