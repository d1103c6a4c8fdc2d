// EmailAddressesPage.swift: the account's addresses with their state, and the forms that change them.
//
// `GET settings/emails` lists them (needs a session); `POST settings/emails` adds one; `POST settings/emails/{resend,
// remove,primary}` with `id` act on one. Every POST needs a password entered within `session.reauthenticate_after`
// (else the re-authentication page, which comes back here). Success and refusals travel as a flash after a redirect;
// field errors re-show the page with the typed address.
import AccountCore
import AccountRules

/// `GET|POST <base>/settings/emails`, `POST <base>/settings/emails/{resend,remove,primary}`.
struct EmailAddressesPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let addresses: EmailAddresses
    init(_ core: AccountServices) { addresses = core.addresses }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        return try render(context, accountId: session.accountId)
    }

    func add(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: listPath(context))
        do {
            try self.addresses.add(context.form["email"] ?? "", to: session.accountId, client: context.client)
        } catch AccountError.invalid(let errors) {
            return try render(context, accountId: session.accountId, form: context.form, errors: errors)
        }
        return done(context, Flash("address_added"))
    }

    func resend(_ context: RequestContext) throws -> Response {
        try change(context, success: "address_resent") { addresses, id, accountId, client in
            try addresses.resend(addressId: id, of: accountId, client: client)
        }
    }

    func remove(_ context: RequestContext) throws -> Response {
        try change(context, success: "address_removed") { addresses, id, accountId, client in
            try addresses.remove(addressId: id, of: accountId, client: client)
        }
    }

    func makePrimary(_ context: RequestContext) throws -> Response {
        try change(context, success: "address_primary_changed") { addresses, id, accountId, client in
            try addresses.makePrimary(addressId: id, of: accountId, client: client)
        }
    }

    // MARK: Helpers

    /// A POST on one address (`id`), its CSRF token checked by the responder: recent sign-in, the core call; then back to the list with a flash.
    private func change(_ context: RequestContext, success: String,
                        _ action: (EmailAddresses, Int64, Int64, ClientInfo) throws -> Void) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: listPath(context))
        guard let id = Int64(context.form["id"] ?? "") else { return done(context, Flash("address_not_found", kind: .alert)) }
        do {
            try action(self.addresses, id, session.accountId, context.client)
        } catch AccountError.notFound {
            return done(context, Flash("address_not_found", kind: .alert))
        } catch AccountError.refused(let key) {
            return done(context, Flash(key, kind: .alert))
        }
        return done(context, Flash(success))
    }

    private func listPath(_ context: RequestContext) -> String { context.site.paths.path("settings/emails") }

    private func done(_ context: RequestContext, _ flash: Flash) -> Response {
        context.flash.set(flash)
        return context.redirect(to: listPath(context))
    }

    /// The list and the add form (with `form`'s address and `errors` when re-shown).
    private func render(_ context: RequestContext, accountId: Int64, form: [String: String] = [:],
                        errors: ValidationErrors = .init(), status: Int = 200) throws -> Response {
        let catalog = context.catalog
        let addresses = try self.addresses.all(of: accountId)
        let verifiedCount = addresses.filter { $0.verifiedAt != nil }.count
        let rows: [[String: Any]] = addresses.map { address in
            let verified = address.verifiedAt != nil
            let state = address.isPrimary ? "primary" : verified ? "verified" : "unverified"
            return [
                "id": String(address.id ?? 0), "address": address.address, "state": state,
                "state_text": catalog.text(address.isPrimary && !verified ? "address_state_primary_unverified" : "address_state_" + state),
                "can_resend": !verified,
                "can_make_primary": verified && !address.isPrimary,
                "can_remove": !address.isPrimary && !(verified && verifiedCount == 1),
            ]
        }
        var form = form
        form["email"] = (form["email"] ?? "").trimmingWhitespace()
        var values = FormView.fields([.email(autocomplete: "email")], form: form, errors: errors, catalog: catalog)
        values["addresses"] = rows
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.settingsPage("settings_emails", section: "emails", values, status: status)
    }
}
