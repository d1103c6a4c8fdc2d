// SocialLinkPage.swift: `GET|POST <base>/auth/link`: the provider's address belongs to an account here. Nothing is
// linked silently: the person signs in to that account, with its password (this form) or with a provider already
// linked to it (a `link_pending` flow), and only then is the new provider linked.
//
// The account is named by an address the person has proven (SocialPickerPage.shownAddress): the provider's, or that
// of an account chosen in the picker that is signed in in this browser. A wrong password counts towards the account's
// lock, as on the sign-in page, and gets the sign-in page's one message. For an account with a second factor the right
// password leads to its second step and nothing is linked yet (the connections page links it once signed in).
import AccountCore
import AccountRules

struct SocialLinkPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let social: SocialSignIn
    init(_ core: AccountServices) { social = core.social }

    func show(_ context: RequestContext) throws -> Response {
        guard let pending = try context.socialPending() else { return context.socialPendingExpired() }
        return try render(context, pending)
    }

    func submit(_ context: RequestContext) throws -> Response {
        guard let token = context.socialPendingToken, let pending = try context.socialPending() else { return context.socialPendingExpired() }
        do {
            let grant = try social.linkWithPassword(
                pendingToken: token, binding: context.socialBinding(create: false) ?? [], password: context.form["password"] ?? "",
                client: context.client, here: context.browserTokens)
            try context.startSession(grant, keepPrevious: false)
            context.setSocialPending(nil)
            context.flash.set(Flash("social_linked", provider: pending.provider))
            return context.redirect(to: context.returnTarget(pending.returnTo.isEmpty ? nil : pending.returnTo))
        } catch AccountError.invalidCredentials {
            return try render(context, pending, flash: Flash("sign_in_failed", kind: .alert))
        } catch AccountError.unconfirmed {
            return try render(context, pending, flash: Flash("unconfirmed", kind: .alert))
        } catch AccountError.secondFactorRequired(let challenge) {
            // Nothing is linked on one factor: the second step signs in, then the settings' connections link it.
            context.setSocialPending(nil)
            return SecondFactorPage.begin(context, challenge: challenge, returnTo: context.site.paths.path("settings/connections"),
                                          adding: false)
        } catch AccountError.refused(let key) {
            context.setSocialPending(nil)
            context.flash.set(Flash(key, kind: .alert, provider: pending.provider))
            return context.redirect(to: context.site.paths.signIn())
        }
    }

    private func render(_ context: RequestContext, _ pending: PendingIdentity, flash: Flash? = nil) throws -> Response {
        let catalog = context.catalog
        let name = context.providerName(pending.provider)
        var values = FormView.fields([.password("password", autocomplete: "current-password")], form: [:], catalog: catalog)
        values["heading"] = catalog.text("social_link_title", ["provider": name])
        // The account chosen in the picker may be named by another address than the provider's (one signed in here).
        let address = SocialPickerPage.shownAddress(pending, signedIn: try context.browserAccountIds())
        values["intro"] = catalog.text("social_link_text", ["provider": name, "email": address])
        values["email"] = address
        values["has_password"] = pending.linkHasPassword
        let configured = Set(context.site.social.providers.map(\.configuration.id))
        let others = pending.linkProviders.filter { configured.contains($0) && $0 != pending.provider }
        if !others.isEmpty {
            values["social"] = context.socialButtons(labelKey: "social_link_with", purpose: .linkPending, ids: others)
        }
        return try context.layout.page("social_link", values, flash: flash)
    }
}
