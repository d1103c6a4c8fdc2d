// FrontdoorClient+Account.swift: the devise-ios account calls on <serverURL>/v1/users.
//
// Options: from Configuration `resourceName` (the path), `passwordLength` (checked before sending),
// `extraParameters[action]` (added to the "user" object), `validationRules[action]` and `fieldNames` (see
// FrontdoorClient.body). Calls and what they do with the stored credentials ("stores": as the active account, kept
// beside the device's other accounts, FrontdoorClient+Accounts.swift):
//   register        POST   users            .signedIn stores them; .confirmationSent stores nothing
//   signIn          POST   users/sign_in    stores them; an account with a second factor throws .secondFactorRequired
//                                            and stores nothing until completeSignIn (FrontdoorClient+SecondFactor.swift)
//   signOut         DELETE users/sign_out   removes the active account's, even when the server call fails
//   update          PUT    users            keeps them, with the account's primary address once it changed
//   changePassword  PUT    users/password   keeps them (the server ends every OTHER token of the account)
//   remindPassword  POST   users/password   none needed
//   resetPassword   PUT    users/password   stores the new token (resetPasswordToken from the mailed link)
//   deleteAccount   DELETE users            removes them
//   reload          PUT    users {}         the account as the server sees it now (and its primary address kept)
import AccountRules
import Foundation

extension FrontdoorClient {
    /// Creates an account. `fields` are the operator's declared profile fields and `displayName` (camelCase or
    /// snake_case keys). `username`: the one chosen, when the server's `identity.username` lets people choose (checked
    /// against AccountRules' `Username` rule before sending; the server ignores it when `off`). With the server's
    /// `confirmation.required`, the answer is `.confirmationSent` for a new and a taken address alike.
    @discardableResult
    public func register(email: String, password: String, passwordConfirmation: String? = nil, username: String? = nil,
                         fields: [String: String] = [:]) async throws -> RegistrationResult {
        let confirmation = passwordConfirmation ?? password
        try check(["email": email, "password": password, "password_confirmation": confirmation], with: signUpRules)
        var user = fields
        if let username {
            try check(["username": username], with: Validator([Field("username", displayName: "Username",
                                                                     rules: Username.rules(required: false))]))
            user["username"] = username
        }
        user["email"] = email
        user["password"] = password
        user["passwordConfirmation"] = confirmation
        let answer = try await send("POST", resource, body: body(.register, user))
        let envelope = try Wire.decode(Wire.UserEnvelope.self, from: answer.body)
        guard let token = envelope.user.authenticationToken, envelope.confirmationSent != true else { return .confirmationSent }
        try remember(envelope.user, token: token)
        return .signedIn(envelope.user)
    }

    /// Signs in with a password and remembers the account. A wrong password, an unknown address and a locked
    /// account all fail with the same `.unauthorized` message. An account with a second factor throws
    /// `.secondFactorRequired(challenge)` after a right password: finish with `completeSignIn(_:code:)`.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> User {
        try check(["email": email, "password": password], with: signInRules)
        return try signedIn(await send("POST", resource + "/sign_in", body: body(.signIn, ["email": email, "password": password])))
    }

    /// Ends the active account's token on the server, then forgets its credentials, whether the server call worked or
    /// not. The other accounts stay signed in, none of them active (`switchAccount(to:)` picks one).
    public func signOut() async throws {
        guard let credentials else { throw FrontdoorClientError.notSignedIn }
        try await signOut(credentials)
    }

    /// Changes what is given: `email` (a new address, mailed a link; it becomes primary once confirmed and shows as
    /// `unconfirmedEmail` meanwhile), `username` (where the server lets people choose) and profile `fields` such as
    /// `displayName`. Keys not sent keep their values.
    /// A new `email` needs `currentPassword` unless this token signed in within the server's `session.reauthenticate_after`
    /// (else `.unauthorized`).
    @discardableResult
    public func update(email: String? = nil, currentPassword: String? = nil, username: String? = nil,
                       fields: [String: String] = [:]) async throws -> User {
        var user = fields
        if let username {
            try check(["username": username], with: Validator([Field("username", displayName: "Username",
                                                                     rules: Username.rules(required: true))]))
            user["username"] = username
        }
        if let email {
            try check(["email": email], with: signUpRules, only: ["email"])
            user["email"] = email
            if let currentPassword { user["currentPassword"] = currentPassword }
        }
        let answer = try await send("PUT", resource, body: body(.update, user), authenticated: true)
        return try following(self.user(in: answer))
    }

    /// The signed-in account as the server sees it now (its primary address, a pending new one, its times).
    public func reload() async throws -> User {
        let answer = try await send("PUT", resource, body: ["user": [String: String]()], authenticated: true)
        return try following(self.user(in: answer))
    }

    /// Sets a new password. Without `currentPassword` the server accepts it only when this token signed in within
    /// its `session.reauthenticate_after`; otherwise `.unauthorized`/`.validation` asks for it. Every other session
    /// and token of the account ends; this one stays.
    @discardableResult
    public func changePassword(to password: String, confirmation: String? = nil, currentPassword: String? = nil) async throws -> User {
        let confirmation = confirmation ?? password
        try check(["password": password, "password_confirmation": confirmation], with: signUpRules,
                  only: ["password", "password_confirmation"])
        var user = ["password": password, "passwordConfirmation": confirmation]
        if let currentPassword { user["currentPassword"] = currentPassword }
        let answer = try await send("PUT", resource + "/password", body: body(.changePassword, user), authenticated: true)
        return try following(self.user(in: answer))
    }

    /// Asks for a password reset mail. The server answers the same for every well-formed address.
    public func remindPassword(email: String) async throws {
        try check(["email": email], with: signUpRules, only: ["email"])
        _ = try await send("POST", resource + "/password", body: body(.remindPassword, ["email": email]))
    }

    /// Sets a new password with the token of a mailed reset link, and signs in (every other session ends).
    @discardableResult
    public func resetPassword(token: String, password: String, confirmation: String? = nil) async throws -> User {
        let confirmation = confirmation ?? password
        try check(["password": password, "password_confirmation": confirmation], with: signUpRules,
                  only: ["password", "password_confirmation"])
        let fields = ["resetPasswordToken": token, "password": password, "passwordConfirmation": confirmation]
        return try signedIn(await send("PUT", resource + "/password", body: body(.resetPassword, fields)))
    }

    /// Deletes the signed-in account and forgets its credentials. Without `currentPassword` the token must have
    /// signed in recently (the server's `session.reauthenticate_after`).
    @discardableResult
    public func deleteAccount(currentPassword: String? = nil) async throws -> User {
        var user: [String: String] = [:]
        if let currentPassword { user["currentPassword"] = currentPassword }
        guard let credentials else { throw FrontdoorClientError.notSignedIn }
        let answer = try await send("DELETE", resource, body: body(.deleteAccount, user), authenticated: true, as: credentials)
        try forget(credentials)
        return try self.user(in: answer)
    }

    // MARK: - Helpers

    var resource: String { configuration.resourceName }

    var signUpRules: Validator { AccountForms.signUp(passwordLength: configuration.passwordLength, catalog: configuration.catalog) }

    /// Sign-in checks only that both are given: the server's answer to anything else is its one failure message.
    var signInRules: Validator {
        let catalog = configuration.catalog
        return Validator([Field("email", displayName: catalog.text("field_email"), rules: [.required]),
                          Field("password", displayName: catalog.text("field_password"), rules: [.required])])
    }

    /// The user an answer carries.
    func user(in answer: HTTPAnswer) throws -> User { try Wire.decode(Wire.UserEnvelope.self, from: answer.body).user }

    /// The user of an answer that signed in, its new token remembered (an answer without one is invalid).
    func signedIn(_ answer: HTTPAnswer) throws -> User {
        let user = try self.user(in: answer)
        guard let token = user.authenticationToken else { throw FrontdoorClientError.invalidResponse }
        try remember(user, token: token)
        return user
    }

    /// Keeps the stored address in step with the account's primary one, so the app shows and sends the address the
    /// account uses now (the server accepts a token with any address its account holds, but an address can be removed).
    func following(_ user: User) throws -> User {
        guard var stored = credentials, stored.username.lowercased() != user.email.lowercased(),
              user.authenticationToken == nil || user.authenticationToken == stored.secret else { return user }
        stored.username = user.email
        try activate(stored)
        return user
    }

    /// The extra parameters of `action` as a body (checked and renamed like any), or no body when there are none.
    func extraBody(_ action: Action) throws -> [String: Any]? {
        guard let extra = configuration.extraParameters[action], !extra.isEmpty else { return nil }
        return try body(action, [:])
    }
}
