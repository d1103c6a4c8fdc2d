// AdminPersonView.swift: the values of a person's admin page (templates/admin_person.mustache) from one
// PersonDetail: addresses, sessions, providers, second factors, groups, the actions and the newest audit rows.
//
// Options: none. Times in UTC (SessionsPage.timestamp/iso). Audit rows keep the trail's own words (event names and
// details are the operator's English, marked `lang="en"` in the template); "by admin <address>" when an admin made the
// change. The admin's own page has no lock and no delete (they use their settings).
import AccountCore
import AccountRules
import Foundation

/// A person's page, as template values.
struct AdminPersonView {
    let person: PersonDetail
    /// The admin looking (their own page offers no lock and no delete).
    let adminId: Int64
    let context: RequestContext

    /// The lock durations offered, in the order shown: form value and seconds.
    static let lockDurations: [(value: String, seconds: TimeInterval)] = [
        ("1h", 3600), ("1d", 86_400), ("7d", 7 * 86_400), ("30d", 30 * 86_400), ("365d", 365 * 86_400),
    ]

    var values: [String: Any] {
        let account = person.detail.account
        let isSelf = account.id == adminId
        var values: [String: Any] = [
            "id": String(account.id), "email": account.email, "name": person.displayName, "username": account.username ?? "",
            "created": SessionsPage.timestamp(account.createdAt), "created_iso": SessionsPage.iso(account.createdAt),
            "is_self": isSelf, "not_self": !isSelf,
            "addresses": addresses, "has_pending": person.detail.addresses.contains { $0.verifiedAt == nil },
            "sessions": sessions, "has_sessions": !person.sessions.isEmpty,
            "providers": providers, "has_providers": !person.identities.isEmpty,
            "one_time_codes": person.oneTimeCodes,
            "one_time_codes_text": person.oneTimeCodes
                ? context.catalog.text("admin_person_one_time_codes_on", ["count": String(person.recoveryCodesLeft)])
                : context.catalog.text("admin_person_one_time_codes_off"),
            "passkeys": person.passkeys.map { ["name": $0.name] }, "has_passkeys": !person.passkeys.isEmpty,
            "has_second_factor": person.oneTimeCodes || !person.passkeys.isEmpty,
            "groups": person.groups.map { group in
                ["name": group, "remove_text": context.catalog.text("admin_person_group_remove_button", ["group": group])]
            },
            "has_groups": !person.groups.isEmpty,
            "addable_groups": addableGroups.map { ["name": $0] }, "has_addable_groups": !addableGroups.isEmpty,
            "durations": Self.lockDurations.map { ["value": $0.value, "label": context.catalog.text("admin_person_duration_" + $0.value)] },
            "audit": audit, "has_audit": !person.audit.isEmpty,
            "audit_path": context.site.paths.path("admin/audit") + "?person=\(account.id)",
        ]
        if let last = account.lastSignIn {
            values["last_sign_in"] = SessionsPage.timestamp(last)
            values["last_sign_in_iso"] = SessionsPage.iso(last)
        }
        if let until = account.lockedUntil {
            values["locked_until"] = SessionsPage.timestamp(until)
            values["locked_until_iso"] = SessionsPage.iso(until)
        }
        return values
    }

    private var addresses: [[String: Any]] {
        person.detail.addresses.map { address in
            let verified = address.verifiedAt != nil
            var states = [context.catalog.text(verified ? "admin_person_address_verified" : "admin_person_address_unverified")]
            if address.isPrimary { states.insert(context.catalog.text("admin_person_address_primary"), at: 0) }
            return ["address": address.address, "state": states.joined(separator: ", "), "pending": !verified, "primary": address.isPrimary]
        }
    }

    private var sessions: [[String: Any]] {
        person.sessions.map { entry in
            [
                "handle": entry.handle,
                "browser": entry.kind == .api ? SessionsPage.appToken(entry.userAgent, catalog: context.catalog)
                                              : UserAgentSummary(entry.userAgent).text(in: context.catalog),
                "address": entry.remoteAddress,
                "created": SessionsPage.timestamp(entry.createdAt), "created_iso": SessionsPage.iso(entry.createdAt),
                "last_seen": SessionsPage.timestamp(entry.lastSeenAt), "last_seen_iso": SessionsPage.iso(entry.lastSeenAt),
            ]
        }
    }

    private var providers: [[String: Any]] {
        person.identities.map { identity in
            [
                "provider": identity.provider, "name": context.providerName(identity.provider), "email": identity.email ?? "",
                "linked": SessionsPage.timestamp(identity.linkedAt), "linked_iso": SessionsPage.iso(identity.linkedAt),
            ]
        }
    }

    /// Existing groups the person is not in.
    private var addableGroups: [String] {
        let member = Set(person.groups.map { $0.lowercased() })
        return person.allGroups.filter { !member.contains($0.lowercased()) }
    }

    private var audit: [[String: Any]] {
        person.audit.map { entry in
            var row: [String: Any] = [
                "time": SessionsPage.timestamp(entry.createdAt), "time_iso": SessionsPage.iso(entry.createdAt),
                "event": entry.event, "address": entry.remoteAddress, "detail": entry.detail,
            ]
            if let actor = entry.actorId {
                row["by"] = person.actors[actor].map { context.catalog.text("admin_person_audit_by", ["address": $0]) }
                    ?? context.catalog.text("admin_person_audit_by_gone", ["id": String(actor)])
            }
            return row
        }
    }
}
