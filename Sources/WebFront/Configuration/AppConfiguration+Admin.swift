// AppConfiguration+Admin.swift: config section `admin`: who may use the admin pages under `<base>/admin/`.
//
// Options:
//   admin.group                    the group whose members are admins (`frontdoor group add admins`, then
//                                  `frontdoor user groups ann@example.com --add admins` makes the first one)
//   admin.require_second_factor    admins must have signed in with two factors (a password and a code or a passkey)
//   admin.reauthenticate_after     destructive admin actions (delete an account, reset a second factor, remove a
//                                  group with members) ask the admin's password again when it was entered longer ago
import Foundation

extension AppConfiguration {
    /// Config section `admin` (Admin/AdminAccess.swift).
    public struct Admin: Sendable, Equatable {
        /// The admins' group (`group`); names compare without case, like every group name.
        public var group = "admins"
        /// Admin pages need a session proven by two factors (`require_second_factor`).
        public var requireSecondFactor = true
        /// How recent the admin's password entry must be for a destructive action (`reauthenticate_after`).
        public var reauthenticateAfter: TimeInterval = 300
    }
}
