// AdminGroupsPage.swift: admin/groups (each group with its member count, a remove form each, a create form) and
// admin/group?name=… (its members, each linked to the person, with a form that takes them out).
//
// Options: `admin.reauthenticate_after` (removing a group that has members: the password again first). Why a group
// with members needs `force` (a ticked box) and a fresh sign-in: removing it shuts every member out of the locations
// that admit the group at once, on every host (Groups.remove); without the box the page says how many would be shut
// out. That refusal is shown in the answer itself, not as a flash: a flash carries only a fixed message, not the
// count. Every change carries `context.adminClient`, so its audit rows name the admin.
import AccountCore
import AccountRules

/// `GET|POST <base>/admin/groups`, `POST <base>/admin/groups/remove` (`name`, `force`), `GET <base>/admin/group?name=`.
struct AdminGroupsPage: Sendable {
    let groups: Groups
    init(_ core: AccountServices) { groups = core.groups }

    func list(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        return try render(context)
    }

    func create(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        do {
            try groups.add(name: context.form["name"] ?? "", client: context.adminClient)
        } catch AccountError.invalid(let errors) {
            // GroupName words its rule for a field called `group`; this form's field is `name`.
            var renamed = ValidationErrors()
            for entry in errors.entries { renamed.add(entry.error, to: entry.field == "group" ? "name" : entry.field, displayName: entry.displayName) }
            return try render(context, form: context.form, errors: renamed, status: 422)
        } catch GroupError.exists {
            var errors = ValidationErrors()
            errors.add(FieldError(key: "admin_groups_exists"), to: "name", displayName: "Group name")
            return try render(context, form: context.form, errors: errors, status: 422)
        }
        return done(context, Flash("admin_groups_created"))
    }

    func remove(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let force = context.form["force"] == "1"
        // The admins' own group would close these pages to every admin at once: the command line removes it.
        if (context.form["name"] ?? "").trimmingWhitespace().caseInsensitiveCompare(context.site.configuration.admin.group) == .orderedSame {
            return done(context, Flash("admin_groups_admin_group", kind: .alert))
        }
        if force { try context.requireFreshAdmin(returnTo: listPath(context)) }
        do {
            try groups.remove(name: context.form["name"] ?? "", force: force, client: context.adminClient)
        } catch GroupError.hasMembers(let name, let count) {
            let refusal = context.catalog.text("admin_groups_has_members", ["name": name, "count": String(count)])
            return try render(context, refusal: refusal, status: 409)
        } catch GroupError.noGroup {
            return done(context, Flash("admin_groups_unknown", kind: .alert))
        }
        return done(context, Flash("admin_groups_removed"))
    }

    func members(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let group: (name: String, members: [GroupMember])
        do {
            group = try groups.members(of: context.query["name"] ?? "")
        } catch GroupError.noGroup {
            throw HTTPError.notFound
        }
        let people = context.site.paths.path("admin/person")
        let rows: [[String: Any]] = group.members.map { member in
            ["id": String(member.accountId), "email": member.email, "person": people + "?id=\(member.accountId)"]
        }
        return try context.layout.adminPage("admin_group", section: "groups", [
            "name": group.name,
            "title": context.catalog.text("admin_group_title", ["name": group.name]),
            "members": rows, "has_members": !rows.isEmpty,
        ])
    }

    // MARK: Helpers

    private func listPath(_ context: RequestContext) -> String { context.site.paths.path("admin/groups") }

    private func done(_ context: RequestContext, _ flash: Flash) -> Response {
        context.flash.set(flash)
        return context.redirect(to: listPath(context))
    }

    /// The list and the create form (with `form` and `errors` when re-shown; `refusal` said above the list).
    private func render(_ context: RequestContext, form: [String: String] = [:], errors: ValidationErrors = .init(),
                        refusal: String? = nil, status: Int = 200) throws -> Response {
        let catalog = context.catalog
        let group = context.site.paths.path("admin/group")
        let rows: [[String: Any]] = try groups.list().enumerated().map { index, summary in
            ["name": summary.name, "link": group + "?name=" + FormData.encode(summary.name), "members": String(summary.members),
             "has_members": summary.members > 0, "force_id": "force-\(index)",
             "created": SessionsPage.timestamp(summary.createdAt), "created_iso": SessionsPage.iso(summary.createdAt)]
        }
        var fields = form
        fields["name"] = (form["name"] ?? "").trimmingWhitespace()
        let input = InputSpec(name: "name", type: "text", autocomplete: "off", keepsValue: true, labelKey: "field_group")
        var values = FormView.fields([input], form: fields, errors: errors, catalog: catalog)
        values["groups"] = rows
        values["has_groups"] = !rows.isEmpty
        if let refusal { values["refusal"] = refusal }
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.adminPage("admin_groups", section: "groups", values, status: status)
    }
}
