// ConfirmationPage.swift: GET confirm?token= marks the address confirmed; confirmation/new resends the link.
import AccountCore

/// `GET <base>/confirm?token=…` and `GET|POST <base>/confirmation/new`.
struct ConfirmationPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let addresses: EmailAddresses
    let confirmation: Confirmation
    init(_ core: AccountServices) { (addresses, confirmation) = (core.addresses, core.confirmation) }

    /// Follows a mailed link: confirmed → sign-in page with a notice, or, when this browser is signed in to the account
    /// the address belongs to (an address added in settings), its address list; bad link → a page offering a new one.
    /// The browser's social binding cookie keeps a provider it linked before the address was proven; a provider linked
    /// in another browser is unlinked, and the notice says so.
    func confirm(_ context: RequestContext) throws -> Response {
        do {
            let confirmed = try confirmation.confirmAddress(token: context.query["token"] ?? "", client: context.client,
                                                            binding: context.socialBinding(create: false))
            let address = confirmed.address
            if let provider = confirmed.unlinkedProviders.first {
                context.flash.set(Flash("confirmed_provider_unlinked", provider: provider))
                return context.redirect(to: context.site.paths.signIn())
            }
            if let session = try context.session(), try addresses.verified(address, of: session.accountId) != nil {
                context.flash.set(Flash("address_confirmed"))
                return context.redirect(to: context.site.paths.path("settings/emails"))
            }
            context.flash.set(Flash("confirmed"))
            return context.redirect(to: context.site.paths.signIn())
        } catch AccountError.invalidToken {
            return try resendForm(context, title: "confirmation_invalid_title", text: "confirmation_invalid_text")
        }
    }

    func show(_ context: RequestContext) throws -> Response {
        try resendForm(context, title: "resend_confirmation_title", text: nil)
    }

    /// Always the same neutral answer, whether or not a mail was sent.
    func submit(_ context: RequestContext) throws -> Response {
        try confirmation.resend(email: context.form["email"] ?? "", client: context.client)
        return try context.layout.page("message", ["title": "resend_confirmation_title", "text": "resend_confirmation_sent"].localized(context))
    }

    private func resendForm(_ context: RequestContext, title: String, text: String?) throws -> Response {
        var values = FormView.fields([.email(autocomplete: "email")], form: [:], catalog: context.catalog)
        values.merge(["title": title, "button": "resend_confirmation_button"].localized(context)) { _, new in new }
        values["action"] = context.site.paths.path("confirmation/new")
        if let text { values["text"] = context.catalog.text(text) }
        return try context.layout.page("email_form", values)
    }
}
