// AdminAccess.swift: who may use the admin pages, checked once per request before any admin handler runs (the
// `admin` route kind: Frontdoor.route), so a page added later cannot forget it.
//
// Options: `admin.group` (members are admins), `admin.require_second_factor` (their session must have been proven
// by two factors), `admin.reauthenticate_after` (requireFreshAdmin, before destructive actions).
// Membership is read from the database on every admin request, not from the session lookup (which a PostgreSQL host
// may answer from its cache for a moment): an admin taken out of the group loses the pages at once, on every host.
// Without a session: the sign-in page, which comes back. Signed in but not an admin: 403, the same page for every
// admin path (which admin pages exist is no secret, but nothing more is said). An admin whose session has one factor:
// 403 saying to set up two-step sign-in and sign in again.
import AccountCore
import Foundation

extension RequestContext {
    /// The admin's session, or the refusal (a redirect to sign in; 403).
    @discardableResult
    func requireAdmin() throws -> SessionInfo {
        if let admittedAdmin { return admittedAdmin }
        let session = try requireSession()
        let settings = site.configuration.admin
        let groups = try core.groups.groups(of: session.accountId)
        guard groups.contains(where: { $0.caseInsensitiveCompare(settings.group) == .orderedSame }) else {
            throw HTTPError(status: 403, messageKey: "error_admin_forbidden")
        }
        guard !settings.requireSecondFactor || session.factors >= 2 else {
            throw HTTPError(status: 403, messageKey: "error_admin_second_factor_required")
        }
        admittedAdmin = session
        return session
    }

    /// The admin's session when their password was entered within `admin.reauthenticate_after`; otherwise the page
    /// that asks it again, which returns to `returnTo`. For actions that cannot be undone.
    @discardableResult
    func requireFreshAdmin(returnTo: String) throws -> SessionInfo {
        try requireAdmin()
        return try requireRecentSignIn(returnTo: returnTo, within: site.configuration.admin.reauthenticateAfter)
    }

    /// This request's client with the admin's account id, for every change an admin makes (audited as `actorId`).
    var adminClient: ClientInfo {
        var client = client
        client.actorId = admittedAdmin?.accountId
        return client
    }
}
