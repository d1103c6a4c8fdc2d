// RequestContext.swift: one request as pages see it: form, cookies, session, CSRF, flash, and cookies to send.
import AccountCore
import AccountRules
import Foundation
import IPAddresses

/// Per-request state, owned by one worker thread for the length of one request.
public final class RequestContext {
    public let request: Request
    public let site: Site
    /// Cookies to send with the response (session, CSRF, flash).
    public private(set) var outgoingCookies: [SetCookie] = []
    private var loadedSession: SessionInfo??
    /// The browser's other signed-in accounts, once read (see RequestContext+Accounts).
    var loadedOthers: [SignedInAccount]?
    private var preSessionBinding: [UInt8]?

    /// A JSON API request (under `<base>/v1/`): no cookie is read, so its language comes from Accept-Language alone.
    public let isAPI: Bool

    public init(request: Request, site: Site, isAPI: Bool = false) {
        self.request = request
        self.site = site
        self.isAPI = isAPI
    }

    /// The language of this request's page, messages and the mail it causes (see `Localization.choose`): the signed-in
    /// account's preference, the switcher's cookie, Accept-Language, the default.
    public lazy var language: String = {
        let localization = site.renderer.localization
        let accept = request.header("Accept-Language")
        guard !isAPI else { return localization.choose(preference: nil, cookie: nil, acceptLanguage: accept) }
        let preference = (try? session()).flatMap { $0 }.flatMap { try? site.services.profile.language(of: $0.accountId) }
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

    /// The request's cookies by name.
    public lazy var cookies: [String: String] = CookieHeader.parse(request.header("Cookie"))

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

    /// The session cookie's value, if any.
    public var sessionToken: String? { cookies[site.configuration.session.cookieName] }

    /// The live session of this browser, or nil (looked up once per request).
    public func session() throws -> SessionInfo? {
        if let loadedSession { return loadedSession }
        let found = try sessionToken.flatMap { try site.services.sessions.find(token: $0) }
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

    /// The live session when its password was entered within `session.reauthenticate_after`; otherwise a redirect to
    /// the page that asks it again, which then returns to `returnTo` (the settings page the change was made from).
    public func requireRecentSignIn(returnTo: String) throws -> SessionInfo {
        let session = try requireSession()
        guard try site.services.reauthentication.isRecent(session.digest) else {
            if request.method == "POST" { setFlash(Flash("reauthentication_required", kind: .alert)) }
            let location = site.paths.path("settings/reauthenticate") + "?rd=" + FormData.encode(returnTo)
            throw HTTPError.redirect(to: location, afterPost: request.method == "POST")
        }
        return session
    }

    // MARK: CSRF

    /// The CSRF token for forms on this page; sets the pre-session cookie when signed out and it is missing.
    public func csrfToken() throws -> String {
        if let session = try session() { return site.csrf.token(binding: session.digest) }
        if let binding = preSessionBinding ?? cookies[CSRF.cookieName].flatMap(Base64URL.decode), binding.count == 32 {
            return site.csrf.token(binding: binding)
        }
        let binding = site.services.random.bytes(32)
        preSessionBinding = binding
        setCookie(CSRF.cookieName, Base64URL.encode(binding))
        return site.csrf.token(binding: binding)
    }

    /// Throws `HTTPError.forbiddenCSRF` unless the form's token matches this browser's session or pre-session cookie.
    public func verifyCSRF() throws {
        guard let token = form[CSRF.fieldName], !token.isEmpty else { throw HTTPError.forbiddenCSRF }
        if let session = try session(), site.csrf.isValid(token, binding: session.digest) { return }
        if let binding = cookies[CSRF.cookieName].flatMap(Base64URL.decode), binding.count == 32,
           site.csrf.isValid(token, binding: binding) { return }
        site.logger.notice("csrf token refused", metadata: ["path": "\(request.path)"])
        throw HTTPError.forbiddenCSRF
    }

    // MARK: Cookies, session, flash

    /// Queues a cookie under the base path; Secure when the request came over https or config says always.
    public func setCookie(_ name: String, _ value: String, maxAge: Int? = nil) {
        queueCookie(SetCookie(name: name, value: value, path: site.paths.cookiePath, maxAge: maxAge, secure: false))
    }

    func queueCookie(_ cookie: SetCookie) {
        var cookie = cookie
        cookie.secure = site.configuration.session.secureCookie == .always || request.isHTTPS
        outgoingCookies.removeAll { $0.name == cookie.name }
        outgoingCookies.append(cookie)
    }

    /// The session cookie: for the whole host (Path=/) and, with `session.cookie_domain`, its subdomains, because
    /// nginx's auth_request gate reads it on the protected apps' requests too.
    func sessionCookie(_ value: String, maxAge: Int?) -> SetCookie {
        let domain = site.configuration.session.cookieDomain
        return SetCookie(name: site.configuration.session.cookieName, value: value, path: "/", maxAge: maxAge, secure: false,
                         domain: domain.isEmpty ? nil : domain)
    }

    /// Makes `session` (with its cookie `token`) the active one: the session cookie lasts as long as a remembered
    /// session, else until the browser closes.
    func activate(token: String, session: SessionInfo?) {
        let maxAge = session?.rememberMe == true ? Int(site.configuration.session.rememberLifetime) : nil
        queueCookie(sessionCookie(session == nil ? "" : token, maxAge: session == nil ? 0 : maxAge))
        loadedSession = .some(session)
    }

    /// Shows `flash` on the next page.
    public func setFlash(_ flash: Flash) { setCookie(Flash.cookieName, flash.cookieValue, maxAge: 120) }

    /// The flash sent by the previous response, cleared so it shows once.
    public func takeFlash() -> Flash? {
        guard let value = cookies[Flash.cookieName], !value.isEmpty else { return nil }
        setCookie(Flash.cookieName, "", maxAge: 0)
        return Flash(cookieValue: value)
    }

    // MARK: Responses

    /// A redirect to a path on this site (303 after a POST, 302 otherwise).
    public func redirect(to location: String) -> Response {
        Response(status: request.method == "POST" ? 303 : 302, headers: [(name: "Location", value: location)])
    }

    /// A settings page: `page` with the settings navigation marking `section` (profile, password, emails, sessions, delete).
    public func settingsPage(_ template: String, section: String, _ values: [String: Any] = [:], status: Int = 200) throws -> Response {
        var values = values
        values["nav"] = [section: true]
        values["wide"] = true
        return try page(template, values, status: status)
    }

    /// Renders `template` as a full page with the values every page has (site name, paths, CSRF token, flash, user).
    /// With `cacheKey`, a signed-out visitor without a flash gets the cached rendering with their token put in
    /// (see PageCache): only for pages whose `values` never vary.
    public func page(_ template: String, _ values: [String: Any] = [:], status: Int = 200, flash: Flash? = nil,
                     cacheKey: String? = nil) throws -> Response {
        let catalog = self.catalog
        let token = try csrfToken()
        let session = try session()
        let flash = flash ?? takeFlash()
        var all: [String: Any] = [
            "site_name": site.configuration.siteName,
            // A section needs false, not "", to be skipped.
            "logo": site.configuration.logoURL.isEmpty ? false as Any : ["url": site.configuration.logoURL] as Any,
            "lang": language,
            // The switcher comes back to this page; a cached page is the same for every visitor, so it names no query.
            "languages": site.renderer.localization.names.map { ["code": $0.code, "name": $0.name, "current": $0.code == language] },
            "current_uri": cacheKey == nil ? request.uri : request.path,
            "static": site.configuration.effectiveStaticPath,
            "paths": ["home": site.paths.home, "sign_in": site.paths.path("sign_in"),
                      "sign_up": site.paths.path("sign_up"), "sign_out": site.paths.path("sign_out"),
                      "password_new": site.paths.path("password/new"), "password_edit": site.paths.path("password/edit"),
                      "confirmation_new": site.paths.path("confirmation/new"),
                      "settings": site.paths.path("settings"), "settings_password": site.paths.path("settings/password"),
                      "settings_emails": site.paths.path("settings/emails"), "settings_sessions": site.paths.path("settings/sessions"),
                      "settings_delete": site.paths.path("settings/delete"),
                      "settings_reauthenticate": site.paths.path("settings/reauthenticate"),
                      "switch_account": site.paths.path("switch"), "sign_in_another": site.paths.path("sign_in") + "?add=1",
                      "settings_connections": site.paths.path("settings/connections"),
                      "connections_unlink": site.paths.path("settings/connections/unlink"),
                      "social_email": site.paths.path("auth/email"), "social_link": site.paths.path("auth/link"),
                      "language": site.paths.path("language")],
            "csrf_token": token,
            "signup_open": site.configuration.signUp == .open,
            "social_enabled": !site.social.isEmpty,
        ]
        if let session {
            all["user"] = ["email": session.email, "signed_in_as": catalog.text("signed_in_as", ["email": session.email])]
            let others = try otherAccounts()
            if !others.isEmpty {
                all["other_accounts"] = others.map { other -> [String: Any] in
                    ["email": other.session.email, "handle": other.handle,
                     "switch_label": catalog.text("switch_to", ["email": other.session.email])]
                }
                all["has_other_accounts"] = true
            }
            all["can_add_account"] = others.count + 1 < site.configuration.session.maxAccounts
        }
        if let flash {
            let provider = flash.provider.map { site.configuration.social.displayName(of: $0) } ?? ""
            all["flash"] = ["kind": flash.kind.rawValue, "role": flash.kind == .alert ? "alert" : "status",
                            "text": catalog.text(flash.key, ["provider": provider])]
        }
        all.merge(values) { _, new in new }
        let contentType = [(name: "Content-Type", value: "text/html; charset=utf-8")]
        if let cacheKey, session == nil, flash == nil {
            let body = try site.pageCache.page(cacheKey + "." + language, token: token) { marker in
                all["csrf_token"] = marker
                return try site.renderer.render(template, all, language: language)
            }
            return Response(status: status, headers: contentType, body: body)
        }
        return Response(status: status, headers: contentType, body: Array(try site.renderer.render(template, all, language: language).utf8))
    }
}
