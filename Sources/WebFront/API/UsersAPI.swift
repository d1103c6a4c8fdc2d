// UsersAPI.swift: the devise-ios resource `<base>/v1/users`: register, sign in and out, update, delete.
//
// Options: `api.enabled` (the routes exist), `api.token_lifetime`, `session.reauthenticate_after` (DELETE, and PUT
// with a new `email`, without `currentPassword` need a token that signed in that recently). Same rules as the HTML forms: the sign-up validator with the
// declared profile fields, the lockout and its single sign-in failure message, and with `confirmation.required` a
// registration answers the same for a new and a taken address (`confirmationSent`, no account id, no token).
//   POST   v1/users           register            201 user (+ token) | 201 confirmationSent | 422 | 403
//   POST   v1/users/sign_in   sign in             201 user + new token | 401 | 401 second_factor_required + challenge
//                                                 (an account with a second factor: SecondFactorAPI finishes it)
//   DELETE v1/users/sign_out  end this token      200 {} | 401
//   PUT    v1/users           profile and email   200 user (token echoed) | 401 | 422
// The user object also carries `username`, `displayName` and the declared profile fields (APIContext.userResponse).
// Registration may send `username` when `identity.username` allows it; PUT may change it then (422 `taken` …).
//   DELETE v1/users           delete the account  200 user (token echoed) | 401 | 422
import AccountCore
import AccountRules
import Foundation

/// The account resource of the devise-ios API.
struct UsersAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let addresses: EmailAddresses
    let apiTokens: APITokens
    let authentication: Authentication
    let deletion: AccountDeletion
    let profile: Profile
    let reauthentication: Reauthentication
    let registration: Registration
    let usernames: Usernames
    init(_ core: AccountServices) {
        addresses = core.addresses
        apiTokens = core.apiTokens
        authentication = core.authentication
        deletion = core.deletion
        profile = core.profile
        reauthentication = core.reauthentication
        registration = core.registration
        usernames = core.usernames
    }

    func register(_ context: RequestContext) throws -> Response {
        var form = try context.api.fields()
        // devise-ios sends no confirmation; like Devise, a confirmation is checked only when one is sent.
        if form["password_confirmation"] == nil { form["password_confirmation"] = form["password"] ?? "" }
        let outcome = try context.api.call { try registration.signUp(form, client: context.client, kind: .api) }
        switch outcome {
        case .signedIn(let grant):
            return try context.api.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 201)
        case .confirmationSent:
            let user: [String: Any] = ["id": NSNull(), "email": (form["email"] ?? "").trimmingCharacters(in: .whitespaces),
                                       "authenticationToken": NSNull(), "createdAt": NSNull(), "updatedAt": NSNull()]
            return .json(["user": user, "confirmationSent": true], status: 201)
        }
    }

    func signIn(_ context: RequestContext) throws -> Response {
        let form = try context.api.fields()
        let grant = try context.api.call {
            try authentication.signIn(email: form["email"] ?? "", password: form["password"] ?? "",
                                     rememberMe: false, client: context.client, kind: .api)
        }
        return try context.api.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 201)
    }

    func signOut(_ context: RequestContext) throws -> Response {
        let session = try context.api.requireSession()
        try apiTokens.signOut(session: session.digest, client: context.client)
        return .json([:], status: 200)
    }

    /// Only the keys sent change: `email` (a new primary address, confirmed by mail first), `display_name` and the
    /// declared profile fields. The profile is checked before anything is written.
    func update(_ context: RequestContext) throws -> Response {
        let session = try context.api.requireSession()
        let form = try context.api.fields()
        let names = ["display_name"] + self.profile.fields.map(\.name)
        var profile: [String: String]?
        if names.contains(where: { form[$0] != nil }) {
            var merged = try context.api.call { try self.profile.values(of: session.accountId).form }
            merged["language"] = nil  // the API does not change the language preference: a form without it keeps it
            for name in names { if let value = form[name] { merged[name] = value.trimmingCharacters(in: .whitespaces) } }
            let errors = AccountForms.profile(self.profile.fields, catalog: context.catalog).validate(merged)
            guard errors.isEmpty else { throw APIError.validation(errors, catalog: context.catalog) }
            profile = merged
        }
        if let email = form["email"]?.trimmingCharacters(in: .whitespaces), !email.isEmpty {
            // A new address can receive reset links: as on the HTML pages, a token that signed in long ago (perhaps a
            // stolen one) must give the password first.
            let password = form["current_password"] ?? form["password"] ?? ""
            try context.api.call {
                try reauthentication.confirmOrRequireRecent(session: session.digest, password: password, client: context.client)
                try addresses.requestPrimaryChange(to: email, accountId: session.accountId, client: context.client)
            }
        }
        // A declared profile field named username (only while `identity.username` is off) keeps the key. A username
        // and the profile change together or not at all.
        let username = self.profile.fields.contains(where: { $0.name == "username" }) ? nil : form["username"]
        if let username, profile == nil {
            try context.api.call { try usernames.change(accountId: session.accountId, to: username, client: context.client) }
        } else if let profile {
            try context.api.call {
                try self.profile.update(accountId: session.accountId, form: profile, username: username, client: context.client)
            }
        }
        return try context.api.userResponse(accountId: session.accountId, token: context.api.token, status: 200)
    }

    /// Deletes the token's account: with `current_password` (or `password`) when sent, else the token must have signed
    /// in within `session.reauthenticate_after`.
    func delete(_ context: RequestContext) throws -> Response {
        let session = try context.api.requireSession()
        let form = try context.api.fields()
        let user = try context.api.user(session.accountId)
        let password = form["current_password"] ?? form["password"] ?? ""
        try context.api.call {
            try deletion.delete(session: session.digest, password: password, client: context.client, recentSignInSuffices: true)
        }
        return context.api.userResponse(user, token: context.api.token, status: 200)
    }
}
