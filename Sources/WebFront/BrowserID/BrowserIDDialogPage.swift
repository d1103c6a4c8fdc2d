// BrowserIDDialogPage.swift: the pages a relying party's include.js opens (the sign-in dialog, popup or full page)
// and the two the support document names (the provisioning page, the authentication entry point).
// Options: `return_to` (absolute http(s) URL: the redirect flow, whose origin is the relying party), `email`
// (hint), `site_name`; config `browserid.allowed_origins` (empty: any site may use the dialog, as BrowserID intends).
// Privacy: only the provisioning page may be framed, and only by Frontdoor itself and the sites allowed_origins lists
// (never by any site, even with the list empty): it says whether someone is signed in, which other sites must not
// learn. The dialog keeps frame denial and tells a site nothing before the person chooses an address for it.
import AccountCore
import AccountRules
import Foundation

/// `GET <base>/browserid/sign_in|provision|authenticate`.
struct BrowserIDDialogPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let addresses: EmailAddresses
    let clock: any Clock
    init(_ core: AccountServices) { (addresses, clock) = (core.addresses, core.clock) }

    /// The dialog: sign in if needed, then choose which verified address to give the site.
    func show(_ context: RequestContext) throws -> Response {
        let query = context.query
        var values = try common(context)
        values["mode_redirect"] = false
        values["return_to"] = ""
        values["rp_origin"] = ""
        if let returnTo = query["return_to"], !returnTo.isEmpty {
            guard let origin = RelyingPartyOrigin.of(returnTo),
                  context.site.configuration.browserID.allowsOrigin(origin) else { throw HTTPError.badRequest }
            values["mode_redirect"] = true
            values["return_to"] = RelyingPartyOrigin.withoutFragment(returnTo)
            values["rp_origin"] = origin
        }
        values["allowed_origins"] = Self.listedOrigins(context.site.configuration.browserID).joined(separator: " ")
        values["site_name_rp"] = String((query["site_name"] ?? "").prefix(100))
        values["email_hint"] = String((query["email"] ?? "").prefix(254))
        let paths = context.site.paths
        values["sign_in_action"] = paths.path("sign_in")
        values["rd"] = context.request.path + (context.request.query.isEmpty ? "" : "?" + context.request.query)
        values["sign_up_url"] = paths.path("sign_up")
        values["reminder_url"] = paths.path("password/new")
        return try context.layout.page("browserid/dialog", values)
    }

    /// The provisioning page named in the support document: framed by Frontdoor itself or an allowed site, it tells
    /// that parent whether someone is signed in (provision.js), and nothing more.
    func provision(_ context: RequestContext) throws -> Response {
        let parents = Self.listedOrigins(context.site.configuration.browserID)
        let values: [String: Any] = ["signed_in": try context.session() != nil, "parents": parents.joined(separator: " ")]
        var response = try context.layout.page("browserid/provision", values)
        response.setHeader("Content-Security-Policy", SecurityHeaders.framingCSP(ancestors: ["'self'"] + parents))
        return response
    }

    /// The authentication page named in the support document: Frontdoor's own sign-in.
    func authenticate(_ context: RequestContext) throws -> Response {
        context.redirect(to: context.site.paths.signIn())
    }

    /// What the dialog shows: who is signed in, their verified addresses, the clock.
    private func common(_ context: RequestContext) throws -> [String: Any] {
        let hint = context.query["email"].map(EmailFormat.normalized) ?? ""
        var values: [String: Any] = [
            "signed_in": false, "emails": [[String: Any]](), "no_verified_email": false, "account_email": "",
            "certify_url": context.site.paths.path("browserid/certify"),
            "server_time": Int64((clock.now().timeIntervalSince1970 * 1000).rounded()),
        ]
        if let session = try context.session() {
            let verified = try addresses.all(of: session.accountId).filter { $0.verifiedAt != nil }
            let selected = verified.first { EmailFormat.normalized($0.address) == hint } ?? verified.first
            values["signed_in"] = true
            values["account_email"] = session.email
            values["emails"] = verified.map { ["address": $0.address, "selected": $0.id == selected?.id] }
            values["no_verified_email"] = verified.isEmpty
        }
        return values
    }

    /// `browserid.allowed_origins`, each as RelyingPartyOrigin writes it; an entry that is not a plain origin is left out.
    static func listedOrigins(_ configuration: AppConfiguration.BrowserID) -> [String] {
        AppConfiguration.commaList(configuration.allowedOrigins).compactMap { entry in
            RelyingPartyOrigin.of(entry).flatMap { origin in
                origin.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ":/.-[]".contains($0)) } ? origin : nil
            }
        }
    }
}

/// The origin a relying party is reached at, from an absolute URL: scheme://host[:port], default ports left out.
enum RelyingPartyOrigin {
    static func of(_ url: String) -> String? {
        guard url.utf8.count <= 2048, !url.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }),
              let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host.lowercased())" + (port.map { ":\($0)" } ?? "")
    }

    static func withoutFragment(_ url: String) -> String {
        url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    }
}
