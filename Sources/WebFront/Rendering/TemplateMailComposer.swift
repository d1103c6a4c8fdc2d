// TemplateMailComposer.swift: words mails from templates/mail/<kind>.txt and .html, with absolute links.
import AccountCore
import AccountRules

/// The `MailComposer` AccountCore uses: subject from the catalog, bodies from the mail templates.
public struct TemplateMailComposer: MailComposer {
    let renderer: PageRenderer
    let configuration: AppConfiguration

    public init(renderer: PageRenderer, configuration: AppConfiguration) {
        self.renderer = renderer
        self.configuration = configuration
    }

    public func compose(_ kind: MailKind, to address: String, language: String?) throws -> MailMessage {
        let localization = renderer.localization
        let language = localization.offered(language) ?? localization.defaultLanguage
        let catalog = localization.catalog(language)
        let paths = SitePaths(base: configuration.basePath)
        let site = configuration.publicURL
        var values: [String: Any] = [
            "site_name": configuration.siteName,
            "address": address,
            "sign_in_url": site + paths.path("sign_in"),
            "reminder_url": site + paths.path("password/new"),
        ]
        switch kind {
        case .confirmation(let token): values["link"] = site + paths.path("confirm") + "?token=" + token
        case .passwordReset(let token), .accountLocked(let token): values["link"] = site + paths.path("password/edit") + "?token=" + token
        case .invitation(let token): values["link"] = configuration.invitationLink(token: token)
        case .addressVerification(let token): values["link"] = site + paths.path("confirm") + "?token=" + token
        case .primaryAddressChanged(let newAddress):
            values["new_address"] = newAddress
            values["settings_url"] = site + paths.path("settings/emails")
        case .addressAdded(let changed), .addressRemoved(let changed):
            values["changed_address"] = changed
            values["settings_url"] = site + paths.path("settings/emails")
        case .identityLinked(let provider), .identityUnlinked(let provider):
            values["provider"] = configuration.social.displayName(of: provider)
            values["settings_url"] = site + paths.path("settings/connections")
        case let .residence(token, userAgent, remoteAddress):
            values["link"] = site + paths.path("residences/confirm") + "?token=" + token
            values["device"] = Self.device(userAgent: userAgent, remoteAddress: remoteAddress, catalog: catalog)
        case .passwordChanged(let providers):
            values["has_providers"] = !providers.isEmpty
            values["providers"] = providers.map { ["name": configuration.social.displayName(of: $0)] }
            values["settings_url"] = site + paths.path("settings/connections")
        case .passkeyAdded(let name), .passkeyRemoved(let name):
            values["passkey"] = name
            values["settings_url"] = site + paths.path("settings/passkeys")
        case .signUpAttempt, .accountDeleted: break
        case .secondFactorEnabled, .secondFactorRemoved: values["settings_url"] = site + paths.path("settings/two_step")
        }
        values["lang"] = language
        return MailMessage(
            from: configuration.mail.from, to: address,
            subject: catalog.text("mail_\(kind.name)_subject", ["site": configuration.siteName, "provider": values["provider"] as? String ?? ""]),
            text: try renderer.render("mail/\(kind.name).txt", values, language: language),
            html: try renderer.render("mail/\(kind.name).html", values, language: language))
    }

    /// "Safari 17 on iOS, from 192.0.2.1": the browser summary when recognised, else the User-Agent as sent (an app's
    /// own name), cut to 80 characters.
    static func device(userAgent: String, remoteAddress: String, catalog: MessageCatalog) -> String {
        catalog.text("residence_device", ["device": UserAgentSummary.name(of: userAgent, limit: 80, catalog: catalog),
                                          "address": remoteAddress.isEmpty ? "?" : remoteAddress])
    }
}
