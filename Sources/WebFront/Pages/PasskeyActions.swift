// PasskeyActions.swift: the JSON endpoints static/js/passkeys.js calls, each a pair: `…/options` gives the options of
// navigator.credentials.create or .get (a fresh challenge bound to this browser), and the endpoint itself takes the
// browser's answer (form field `credential`, the credential as JSON) and acts on it.
//   POST passkeys/register/options, passkeys/register (field `name`)             add a passkey (recent sign-in needed)
//   POST passkeys/sign_in/options, passkeys/sign_in (fields `rd`, `remember_me`, `add`)  sign in, no address typed
//   POST passkeys/reauthenticate/options, passkeys/reauthenticate (field `rd`)   confirm it's you
//   POST passkeys/second_factor/options, passkeys/second_factor (fields `rd`, `add`)  the second step after a password
//        (the pending sign-in of SecondFactorPage's cookie), or the step-up of a one-factor session
//
// They are browser forms (RouteKind.form): urlencoded bodies carrying `csrf_token`, checked before the handler like
// every form. Answers: 200 `{"publicKey": {…}}` for options; 200 `{"redirect": "<path>"}` when done (the next page
// shows the flash); 4xx `{"error": "<key>", "message": "<text>"}`, with `redirect` when the person must sign in or
// confirm it's you first. The challenge's binding is the browser's binding cookie (RequestContext+Social).
import AccountCore
import AccountRules
import Foundation

struct PasskeyActions: Sendable {
    // Core operations these endpoints use, given in Routes.table.
    let passkeys: Passkeys
    let reauthentication: Reauthentication
    let secondFactor: SecondFactorSignIn
    init(_ core: AccountServices) { (passkeys, reauthentication, secondFactor) = (core.passkeys, core.reauthentication, core.secondFactor) }

    /// The endpoints' paths, for the templates' `data-` attributes; false (no passkey forms) when the site cannot be a
    /// relying party (its public_url names an IP address).
    static func paths(_ context: RequestContext) -> Any {
        context.core.configuration.passkeys.isUsable ? paths(context.site.paths) : false
    }

    static func paths(_ paths: SitePaths) -> [String: String] {
        ["register_options": paths.path("passkeys/register/options"), "register": paths.path("passkeys/register"),
         "sign_in_options": paths.path("passkeys/sign_in/options"), "sign_in": paths.path("passkeys/sign_in"),
         "reauthenticate_options": paths.path("passkeys/reauthenticate/options"), "reauthenticate": paths.path("passkeys/reauthenticate"),
         "second_factor_options": paths.path("passkeys/second_factor/options"), "second_factor": paths.path("passkeys/second_factor")]
    }

    /// The words the script shows for what happens in the browser (cancelled, failed).
    static func scriptMessages(_ catalog: MessageCatalog) -> [String: String] {
        ["cancelled": catalog.text("passkey_cancelled"), "failed": catalog.text("passkey_failed"), "exists": catalog.text("passkey_exists")]
    }

    // MARK: Adding

    func registerOptions(_ context: RequestContext) throws -> Response {
        try answer(context) {
            let session = try recentSession(context)
            let options = try passkeys.beginRegistration(accountId: session.accountId, userName: session.email,
                                                         displayName: session.displayName, binding: binding(context, create: true))
            return .json(["publicKey": options.jsonObject])
        }
    }

    func register(_ context: RequestContext) throws -> Response {
        try answer(context) {
            let session = try recentSession(context)
            guard let attestation = PasskeyAttestation(json: context.form["credential"] ?? "") else { throw AccountError.refused("passkey_invalid") }
            try passkeys.finishRegistration(accountId: session.accountId, attestation: attestation, name: context.form["name"] ?? "",
                                            defaultName: context.catalog.text("passkey_default_name"),
                                            binding: binding(context, create: false), client: context.client, session: session.digest)
            context.flash.set(Flash("passkey_added"))
            return .json(["redirect": context.site.paths.path("settings/passkeys")])
        }
    }

    // MARK: Signing in

    func signInOptions(_ context: RequestContext) throws -> Response {
        try answer(context) {
            .json(["publicKey": try passkeys.beginAssertion(.signIn, binding: binding(context, create: true)).jsonObject])
        }
    }

    func signIn(_ context: RequestContext) throws -> Response {
        let form = context.form
        let adding = try form["add"] == "1" && context.session() != nil
        if adding, try !context.hasRoomForAnotherAccount() {
            return error(context, "too_many_accounts", status: 409)
        }
        return try answer(context) {
            guard let assertion = PasskeyAssertion(json: form["credential"] ?? "") else { throw AccountError.refused("passkey_invalid") }
            let grant = try passkeys.signIn(assertion: assertion, binding: binding(context, create: false),
                                            rememberMe: form["remember_me"] == "1", client: context.client,
                                            here: context.browserTokens, keepPrevious: adding)
            try context.startSession(grant, keepPrevious: adding)
            context.flash.set(Flash("signed_in"))
            return .json(["redirect": context.returnTarget(form["rd"])])
        }
    }

    // MARK: Confirming it's you

    func reauthenticateOptions(_ context: RequestContext) throws -> Response {
        guard let session = try context.session() else { return signInRequired(context) }
        return try answer(context) {
            .json(["publicKey": try passkeys.beginAssertion(.reauthenticate, accountId: session.accountId,
                                                            binding: binding(context, create: true)).jsonObject])
        }
    }

    func reauthenticate(_ context: RequestContext) throws -> Response {
        guard let session = try context.session() else { return signInRequired(context) }
        return try answer(context) {
            guard let assertion = PasskeyAssertion(json: context.form["credential"] ?? "") else { throw AccountError.refused("passkey_invalid") }
            try passkeys.reauthenticate(session: session.digest, accountId: session.accountId, assertion: assertion,
                                        binding: binding(context, create: false), client: context.client)
            context.flash.set(Flash("reauthenticated"))
            return .json(["redirect": ReauthenticationPage.localTarget(context, context.form["rd"])])
        }
    }

    // MARK: The second factor

    /// What the second step waits for in this browser: a pending sign-in's account (its challenge cookie), else the
    /// one-factor session's (a step-up); nil when neither.
    static func secondFactorAccount(_ context: RequestContext) throws -> (accountId: Int64, challenge: String?)? {
        let binding = context.socialBinding(create: false)
        if let challenge = context.cookies.hostBoundValue(SecondFactorPage.challengeCookie), !challenge.isEmpty,
           let accountId = try context.core.secondFactor.pendingAccount(challenge: challenge, binding: binding) {
            return (accountId, challenge)
        }
        guard let session = try context.session(), session.factors < 2 else { return nil }
        return (session.accountId, nil)
    }

    /// The second step page's passkey form values: the paths when the waiting account has a passkey, else false.
    static func secondFactorPaths(_ context: RequestContext) throws -> Any {
        guard context.core.configuration.passkeys.isUsable, let waiting = try secondFactorAccount(context),
              try !context.core.passkeys.list(accountId: waiting.accountId).isEmpty else { return false }
        return paths(context.site.paths)
    }

    func secondFactorOptions(_ context: RequestContext) throws -> Response {
        try answer(context) {
            guard let waiting = try Self.secondFactorAccount(context) else { throw AccountError.refused("second_factor_expired") }
            return .json(["publicKey": try passkeys.beginAssertion(.secondFactor, accountId: waiting.accountId,
                                                                   binding: binding(context, create: true)).jsonObject])
        }
    }

    func secondFactorFinish(_ context: RequestContext) throws -> Response {
        let form = context.form
        let adding = form["add"] == "1"
        return try answer(context) {
            guard let waiting = try Self.secondFactorAccount(context) else { throw AccountError.refused("second_factor_expired") }
            guard let assertion = PasskeyAssertion(json: form["credential"] ?? "") else { throw AccountError.refused("passkey_invalid") }
            if let challenge = waiting.challenge {
                let grant = try secondFactor.complete(challenge: challenge, proof: .passkey(assertion), client: context.client,
                                                      here: context.browserTokens, keepPrevious: adding, binding: binding(context, create: false))
                context.cookies.setHostBound(SecondFactorPage.challengeCookie, "", maxAge: 0)
                try context.startSession(grant, keepPrevious: adding)
                context.flash.set(Flash("signed_in"))
            } else {
                guard let session = try context.session() else { throw AccountError.notFound }
                try secondFactor.stepUp(session: session.digest, proof: .passkey(assertion), client: context.client,
                                        binding: binding(context, create: false))
                context.flash.set(Flash("second_factor_passed"))
            }
            return .json(["redirect": context.returnTarget(form["rd"])])
        }
    }

    // MARK: Answers

    private func binding(_ context: RequestContext, create: Bool) -> [UInt8] { context.socialBinding(create: create) ?? [] }

    /// The session when it signed in recently; otherwise the answer names where to go (thrown as a JSON response).
    private func recentSession(_ context: RequestContext) throws -> SessionInfo {
        guard let session = try context.session() else { throw JSONAnswer(response: signInRequired(context)) }
        guard try reauthentication.isRecent(session.digest) else {
            let back = context.site.paths.path("settings/passkeys")
            context.flash.set(Flash("reauthentication_required", kind: .alert))
            throw JSONAnswer(response: error(context, "reauthentication_required", status: 403,
                                             redirect: context.site.paths.path("settings/reauthenticate") + "?rd=" + FormData.encode(back)))
        }
        return session
    }

    private func signInRequired(_ context: RequestContext) -> Response {
        error(context, "sign_in_required", status: 401, redirect: context.site.paths.signIn())
    }

    /// Runs `body`, turning the core's refusals into JSON errors.
    private func answer(_ context: RequestContext, _ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let answer as JSONAnswer {
            return answer.response
        } catch AccountError.refused(let key) {
            return error(context, key, status: key == "passkey_exists" || key == "passkey_too_many" ? 409 : 400)
        } catch AccountError.invalidCredentials {
            return error(context, "passkey_invalid", status: 400)
        } catch AccountError.notFound {
            return signInRequired(context)
        }
    }

    private func error(_ context: RequestContext, _ key: String, status: Int, redirect: String? = nil) -> Response {
        var object: [String: Any] = ["error": key, "message": context.catalog.text(key)]
        if let redirect { object["redirect"] = redirect }
        return .json(object, status: status)
    }
}

/// A finished JSON answer thrown out of a helper.
private struct JSONAnswer: Error {
    let response: Response
}
