// AdminPeoplePage.swift: the admin's list of people (`GET admin/people?q=&page=`) and a person's page
// (`GET admin/person?id=`, its values built by AdminPersonView).
//
// Options: none of its own. The list: 50 accounts a page, oldest first; `q` matches any address, the username or the
// display name without case (Administration.people); pager links only when there is a page before or after. Times in
// UTC as on the sessions page. An unknown or malformed id is a 404.
import AccountCore
import AccountRules
import Foundation

/// `GET <base>/admin`, `GET <base>/admin/people`, `GET <base>/admin/person`.
struct AdminPeoplePage: Sendable {
    let administration: Administration
    static let pageSize = 50
    init(_ core: AccountServices) { administration = core.administration }

    func list(_ context: RequestContext) throws -> Response {
        try context.requireAdmin()
        let catalog = context.catalog
        let search = (context.query["q"] ?? "").trimmingWhitespace()
        // A page number past any real list is refused before it becomes an offset.
        let page = min(max(1, Int(context.query["page"] ?? "") ?? 1), 1_000_000)
        let found = try administration.people(search: search.isEmpty ? nil : search, limit: Self.pageSize,
                                              offset: (page - 1) * Self.pageSize)
        let people: [[String: Any]] = found.people.map { person in
            let account = person.account
            var row: [String: Any] = [
                "id": String(account.id), "email": account.email, "name": person.displayName, "username": account.username ?? "",
                "groups": person.groups.joined(separator: ", "),
                "unconfirmed": !account.confirmed, "locked": account.lockedUntil != nil, "two_step": person.oneTimeCodes,
            ]
            if person.passkeys > 0 { row["passkeys"] = catalog.text("admin_people_badge_passkeys", ["count": String(person.passkeys)]) }
            if let last = account.lastSignIn {
                row["last_sign_in"] = SessionsPage.timestamp(last)
                row["last_sign_in_iso"] = SessionsPage.iso(last)
            }
            return row
        }
        let base = context.site.paths.path("admin/people")
        func pagePath(_ number: Int) -> String {
            base + "?" + (search.isEmpty ? "" : "q=" + FormData.encode(search) + "&") + "page=\(number)"
        }
        var values: [String: Any] = ["q": search, "people": people, "has_people": !people.isEmpty]
        if page > 1 { values["previous_path"] = pagePath(page - 1) }
        if found.hasMore { values["next_path"] = pagePath(page + 1) }
        if page > 1 || found.hasMore {
            values["has_pager"] = true
            values["page_text"] = catalog.text("admin_people_page", ["page": String(page)])
        }
        return try context.layout.adminPage("admin_people", section: "people", values)
    }

    func show(_ context: RequestContext) throws -> Response {
        let admin = try context.requireAdmin()
        guard let id = Int64(context.query["id"] ?? "") else { throw HTTPError.notFound }
        let person: PersonDetail
        do {
            person = try administration.person(accountId: id)
        } catch AdministrationError.noAccount {
            throw HTTPError.notFound
        }
        let values = AdminPersonView(person: person, adminId: admin.accountId, context: context).values
        return try context.layout.adminPage("admin_person", section: "people", values)
    }

    /// `GET <base>/admin`: the people list, the admin's usual start.
    static func index(_ context: RequestContext) throws -> Response {
        context.redirect(to: context.site.paths.path("admin/people"))
    }
}
