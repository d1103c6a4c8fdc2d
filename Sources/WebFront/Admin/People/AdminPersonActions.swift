// AdminPersonActions.swift: what an admin does to a person from their page (`POST admin/person/…`, each with the
// account's `id`), and deleting an account (`GET|POST admin/person/delete`).
//
// Options: `admin.reauthenticate_after` (removing second factors and deleting ask the admin's password again when it
// is older). Each action is one core operation, the same the CLI uses, given `context.adminClient` so its audit rows
// name the admin (`actorId`); then back to the person's page with a flash (a refusal is an alert flash, never a 500).
// An unknown or malformed id is a 404. An admin cannot lock or delete their own account here (their settings do it).
import AccountCore
import AccountRules
import Foundation

/// `POST <base>/admin/person/{sessions/revoke,sessions/revoke_all,unlink,second_factor/reset,groups,lock,unlock,
/// password_reset,confirmation,confirm}`, `GET|POST <base>/admin/person/delete`.
struct AdminPersonActions: Sendable {
    let administration: Administration
    let socialLinks: SocialLinks
    let secondFactor: SecondFactorSignIn
    let groups: Groups
    let lockout: Lockout
    let reminder: PasswordReminder
    let confirmation: Confirmation

    init(_ core: AccountServices) {
        administration = core.administration
        socialLinks = core.socialLinks
        secondFactor = core.secondFactor
        groups = core.groups
        lockout = core.lockout
        reminder = core.reminder
        confirmation = core.confirmation
    }

    func revokeSession(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        do {
            try administration.revokeSession(handle: context.form["handle"] ?? "", accountId: id, client: context.adminClient)
        } catch AccountError.notFound {
            return back(context, id, Flash("admin_person_session_not_found", kind: .alert))
        }
        return back(context, id, Flash("admin_person_session_revoked"))
    }

    func revokeSessions(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        try administration.revokeSessions(accountId: id, client: context.adminClient)
        return back(context, id, Flash("admin_person_sessions_revoked"))
    }

    func unlink(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        let provider = context.form["provider"] ?? ""
        // Only a provider id travels in the flash cookie; anything else was never linked.
        let named = SocialProvidersConfig.isValidID(provider) ? provider : nil
        do {
            try socialLinks.unlink(accountId: id, provider: provider, client: context.adminClient)
        } catch AccountError.notFound {
            return back(context, id, Flash("admin_person_unlink_not_linked", kind: .alert))
        } catch AccountError.refused {
            return back(context, id, Flash("admin_person_unlink_last_method", kind: .alert, provider: named))
        }
        return back(context, id, Flash("admin_person_unlinked", provider: named))
    }

    func resetSecondFactor(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        try context.requireFreshAdmin(returnTo: personPath(context, id))
        let removed = try secondFactor.reset(accountId: id, client: context.adminClient)
        return back(context, id, Flash(removed.isEmpty ? "admin_person_second_factor_none" : "admin_person_second_factor_reset"))
    }

    func changeGroups(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        let add = (context.form["add"] ?? "").trimmingWhitespace(), remove = (context.form["remove"] ?? "").trimmingWhitespace()
        // The group page's remove forms come back to the group (`back=group`).
        let toGroup = context.form["back"] == "group" && !remove.isEmpty
        let done = { (flash: Flash) -> Response in
            guard toGroup else { return back(context, id, flash) }
            context.flash.set(flash)
            return context.redirect(to: context.site.paths.path("admin/group") + "?name=" + FormData.encode(remove))
        }
        guard add.isEmpty != remove.isEmpty else { return done(Flash("admin_person_group_missing", kind: .alert)) }
        // Taking oneself out of the admins would close these pages to the one using them, perhaps the last admin:
        // another admin, or `frontdoor user groups`, does that.
        let adminGroup = context.site.configuration.admin.group
        if try id == context.requireAdmin().accountId, remove.caseInsensitiveCompare(adminGroup) == .orderedSame {
            return done(Flash("admin_person_self_admin_group", kind: .alert))
        }
        do {
            try groups.change(accountId: id, adding: add.isEmpty ? [] : [add], removing: remove.isEmpty ? [] : [remove],
                              client: context.adminClient)
        } catch GroupError.noGroup {
            return done(Flash("admin_person_group_unknown", kind: .alert))
        }
        return done(Flash(add.isEmpty ? "admin_person_group_removed" : "admin_person_group_added"))
    }

    func lock(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        guard try id != context.requireAdmin().accountId else { return back(context, id, Flash("admin_person_self_lock", kind: .alert)) }
        guard let duration = AdminPersonView.lockDurations.first(where: { $0.value == context.form["duration"] })?.seconds else {
            return back(context, id, Flash("admin_person_lock_duration_invalid", kind: .alert))
        }
        try lockout.lock(accountId: id, for: duration, client: context.adminClient)
        return back(context, id, Flash("admin_person_locked"))
    }

    func unlock(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        try lockout.unlock(accountId: id, client: context.adminClient)
        return back(context, id, Flash("admin_person_unlocked"))
    }

    func sendPasswordReset(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        return try refusable(context, id, success: "admin_person_reset_sent") {
            try reminder.sendReminder(accountId: id, client: context.adminClient)
        }
    }

    func resendConfirmation(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        return try refusable(context, id, success: "admin_person_confirmation_sent") {
            try confirmation.resend(accountId: id, email: context.form["email"] ?? "", client: context.adminClient)
        }
    }

    func confirm(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        do {
            let confirmed = try administration.confirm(accountId: id, reason: context.form["reason"] ?? "", client: context.adminClient)
            return back(context, id, Flash(confirmed.isEmpty ? "admin_person_confirm_none" : "admin_person_confirmed"))
        } catch AccountError.refused(let key) {
            return back(context, id, Flash(key, kind: .alert))
        }
    }

    func showDelete(_ context: RequestContext) throws -> Response {
        let id = try account(Int64(context.query["id"] ?? ""))
        // Asked here already (as settings/delete does), so the password comes before the address is typed.
        try context.requireFreshAdmin(returnTo: context.site.paths.path("admin/person/delete") + "?id=\(id)")
        return try renderDelete(context, id: id)
    }

    func delete(_ context: RequestContext) throws -> Response {
        let id = try target(context)
        let deletePath = context.site.paths.path("admin/person/delete") + "?id=\(id)"
        let admin = try context.requireFreshAdmin(returnTo: deletePath)
        guard id != admin.accountId else { return back(context, id, Flash("admin_person_self_delete", kind: .alert)) }
        let primary = try administration.show(accountId: id).account.email
        let typed = (context.form["confirm_email"] ?? "").trimmingWhitespace()
        guard !primary.isEmpty, typed.caseInsensitiveCompare(primary) == .orderedSame else {
            return try renderDelete(context, id: id, typed: typed, error: true)
        }
        try administration.delete(accountId: id, client: context.adminClient)
        context.flash.set(Flash("admin_person_deleted"))
        return context.redirect(to: context.site.paths.path("admin/people"))
    }

    // MARK: Helpers

    /// The account the form's `id` names; a 404 when it is malformed or no account has it.
    private func target(_ context: RequestContext) throws -> Int64 {
        try context.requireAdmin()
        return try account(Int64(context.form["id"] ?? ""))
    }

    private func account(_ id: Int64?) throws -> Int64 {
        guard let id, id > 0, let found = try? administration.resolve(String(id)), found == id else { throw HTTPError.notFound }
        return id
    }

    /// Runs `action`; its `AccountError.refused(key)` becomes an alert flash, success the `success` flash.
    private func refusable(_ context: RequestContext, _ id: Int64, success: String, _ action: () throws -> Void) throws -> Response {
        do {
            try action()
        } catch AccountError.refused(let key) {
            return back(context, id, Flash(key, kind: .alert))
        } catch AccountError.notFound {
            throw HTTPError.notFound
        }
        return back(context, id, Flash(success))
    }

    private func personPath(_ context: RequestContext, _ id: Int64) -> String {
        context.site.paths.path("admin/person") + "?id=\(id)"
    }

    private func back(_ context: RequestContext, _ id: Int64, _ flash: Flash) -> Response {
        context.flash.set(flash)
        return context.redirect(to: personPath(context, id))
    }

    /// The delete page: what goes, and the primary address to type again (with its error when it did not match).
    private func renderDelete(_ context: RequestContext, id: Int64, typed: String = "", error: Bool = false) throws -> Response {
        let primary = try administration.show(accountId: id).account.email
        let catalog = context.catalog
        var field: [String: Any] = [
            "name": "confirm_email", "label": catalog.text("admin_person_delete_confirm_label"), "type": "email",
            "autocomplete": "off", "value": typed,
        ]
        if error {
            field["error"] = catalog.text("admin_person_delete_mismatch")
            field["invalid"] = true
        }
        return try context.layout.adminPage("admin_person_delete", section: "people", [
            "id": String(id), "email": primary, "field": field,
            "text": catalog.text("admin_person_delete_text", ["address": primary]),
            "back_text": catalog.text("admin_person_back", ["address": primary]),
            "person_path": personPath(context, id),
            "form_error": error ? catalog.text("form_has_errors") : "",
        ], status: error ? 422 : 200)
    }
}
