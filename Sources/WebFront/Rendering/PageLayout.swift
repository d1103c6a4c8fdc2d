// PageLayout.swift: what every HTML page has around its own values: site name and logo, the language switcher, the
// paths dictionary, the CSRF token, the flash, the signed-in user and the switcher's other accounts; and the page cache.
//
// Options: `site_name`, `logo_url`, `static_path`, `signup` (the sign-up link), `session.max_accounts` (the "another
// account" entry), `social.providers` (whether social pages are linked). With a `cacheKey`, a signed-out visitor
// without a flash gets the page rendered once per language with their token put in (see PageCache).
import AccountCore

/// The page frame of one request (`context.layout`).
struct PageLayout {
    let context: RequestContext

    /// The `paths` every template may link to, by template name (built once per site, see `Site.layoutPaths`).
    static func paths(_ paths: SitePaths) -> [String: String] {
        ["home": paths.home, "sign_in": paths.path("sign_in"),
         "sign_up": paths.path("sign_up"), "sign_out": paths.path("sign_out"),
         "password_new": paths.path("password/new"), "password_edit": paths.path("password/edit"),
         "confirmation_new": paths.path("confirmation/new"),
         "settings": paths.path("settings"), "settings_password": paths.path("settings/password"),
         "settings_emails": paths.path("settings/emails"), "settings_sessions": paths.path("settings/sessions"),
         "settings_delete": paths.path("settings/delete"),
         "settings_reauthenticate": paths.path("settings/reauthenticate"),
         "switch_account": paths.path("switch"), "sign_in_another": paths.path("sign_in") + "?add=1",
         "settings_connections": paths.path("settings/connections"),
         "connections_unlink": paths.path("settings/connections/unlink"),
         "social_email": paths.path("auth/email"), "social_link": paths.path("auth/link"),
         "language": paths.path("language"),
         "settings_two_step": paths.path("settings/two_step"), "two_step_begin": paths.path("settings/two_step/begin"),
         "two_step_recovery_codes": paths.path("settings/two_step/recovery_codes"), "two_step_off": paths.path("settings/two_step/off"),
         "settings_passkeys": paths.path("settings/passkeys"), "passkeys_rename": paths.path("settings/passkeys/rename"),
         "passkeys_remove": paths.path("settings/passkeys/remove"), "settings_apps": paths.path("settings/apps")]
    }

    /// A settings page: `page` with the settings navigation marking `section` (profile, password, emails, sessions, delete).
    func settingsPage(_ template: String, section: String, _ values: [String: Any] = [:], status: Int = 200) throws -> Response {
        var values = values
        values["nav"] = [section: true]
        values["wide"] = true
        return try page(template, values, status: status)
    }

    /// Renders `template` as a full page with the values every page has (site name, paths, CSRF token, flash, user).
    /// With `cacheKey`, a signed-out visitor without a flash gets the cached rendering with their token put in
    /// (see PageCache): only for pages whose `values` never vary.
    func page(_ template: String, _ values: @autoclosure () throws -> [String: Any] = [:], status: Int = 200, flash: Flash? = nil,
              cacheKey: String? = nil) throws -> Response {
        let site = context.site, language = context.language
        let token = try context.csrf.token()
        let session = try context.session()
        let flash = flash ?? context.flash.take()
        let contentType = [(name: "Content-Type", value: "text/html; charset=utf-8")]
        // A cached page's values (the layout's and the page's own) are built only when it is rendered: on a hit the
        // dictionaries would cost more than serving it.
        if let cacheKey, session == nil, flash == nil {
            let body = try site.pageCache.page(cacheKey + "." + language, token: token) { marker in
                try site.renderer.render(template, try everything(values(), token: marker, session: nil, flash: nil, cacheKey: cacheKey),
                                         language: language)
            }
            return Response(status: status, headers: contentType, body: body)
        }
        let all = try everything(values(), token: token, session: session, flash: flash, cacheKey: cacheKey)
        return Response(status: status, headers: contentType, body: Array(try site.renderer.render(template, all, language: language).utf8))
    }

    /// The layout's values (site, language switcher, paths, CSRF token, the signed-in account and its others, the
    /// flash) with the page's own `values` over them.
    private func everything(_ values: [String: Any], token: String, session: SessionInfo?, flash: Flash?, cacheKey: String?) throws -> [String: Any] {
        let site = context.site, language = context.language
        let catalog = context.catalog
        var all: [String: Any] = [
            "site_name": site.configuration.siteName,
            // A section needs false, not "", to be skipped.
            "logo": site.configuration.logoURL.isEmpty ? false as Any : ["url": site.configuration.logoURL] as Any,
            "lang": language,
            // The switcher comes back to this page; a cached page is the same for every visitor, so it names no query.
            "languages": site.renderer.localization.names.map { ["code": $0.code, "name": $0.name, "current": $0.code == language] },
            "current_uri": cacheKey == nil ? context.request.uri : context.request.path,
            "static": site.configuration.effectiveStaticPath,
            "paths": site.layoutPaths,
            "csrf_token": token,
            "signup_open": site.configuration.signUp == .open,
            "social_enabled": !site.social.isEmpty,
            "openid_enabled": site.openID != nil,
        ]
        if let session {
            all["user"] = ["email": session.email, "signed_in_as": catalog.text("signed_in_as", ["email": session.email])]
            let others = try context.otherAccounts()
            if !others.isEmpty {
                all["other_accounts"] = others.map { other -> [String: Any] in
                    ["email": other.session.email, "handle": other.handle,
                     "switch_label": catalog.text("switch_to", ["email": other.session.email])]
                }
                all["has_other_accounts"] = true
            }
            all["can_add_account"] = try context.hasRoomForAnotherAccount()
        }
        if let flash {
            let provider = flash.provider.map { site.configuration.social.displayName(of: $0) } ?? ""
            all["flash"] = ["kind": flash.kind.rawValue, "role": flash.kind == .alert ? "alert" : "status",
                            "text": catalog.text(flash.key, ["provider": provider])]
        }
        all.merge(values) { _, new in new }
        return all
    }
}
