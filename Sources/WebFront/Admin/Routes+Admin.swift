// Routes+Admin.swift: the admin pages' routes, all of kind `admin` (AdminAccess checks the admin before any handler;
// every POST's form token is checked first). Merged into Routes.table.
import AccountCore

extension Routes {
    /// Every admin route by relative path: people (People/), invitations, groups and the audit log (Lists/), health.
    static func admin(core: AccountServices) -> [String: Route] {
        let people = AdminPeoplePage(core), person = AdminPersonActions(core)
        let invitations = AdminInvitationsPage(core), groups = AdminGroupsPage(core), audit = AdminAuditPage(core)
        let health = AdminHealthPage(core)
        return [
            "admin": .admin(["GET": AdminPeoplePage.index]),
            "admin/people": .admin(["GET": people.list]),
            "admin/person": .admin(["GET": people.show]),
            "admin/person/sessions/revoke": .admin(["POST": person.revokeSession]),
            "admin/person/sessions/revoke_all": .admin(["POST": person.revokeSessions]),
            "admin/person/unlink": .admin(["POST": person.unlink]),
            "admin/person/second_factor/reset": .admin(["POST": person.resetSecondFactor]),
            "admin/person/groups": .admin(["POST": person.changeGroups]),
            "admin/person/lock": .admin(["POST": person.lock]),
            "admin/person/unlock": .admin(["POST": person.unlock]),
            "admin/person/password_reset": .admin(["POST": person.sendPasswordReset]),
            "admin/person/confirmation": .admin(["POST": person.resendConfirmation]),
            "admin/person/confirm": .admin(["POST": person.confirm]),
            "admin/person/delete": .admin(["GET": person.showDelete, "POST": person.delete]),
            "admin/invitations": .admin(["GET": invitations.show, "POST": invitations.create]),
            "admin/invitations/revoke": .admin(["POST": invitations.revoke]),
            "admin/groups": .admin(["GET": groups.list, "POST": groups.create]),
            "admin/groups/remove": .admin(["POST": groups.remove]),
            "admin/group": .admin(["GET": groups.members]),
            "admin/audit": .admin(["GET": audit.show]),
            "admin/audit/csv": .admin(["GET": audit.csv]),
            "admin/health": .admin(["GET": health.show]),
        ]
    }
}
