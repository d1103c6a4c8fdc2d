// APIContext.swift: a JSON API request as the API handlers see it (`context.api`): its body, the user's fields, the
// token authentication, the user JSON, and account errors turned into the API's answers.
//
// Options: none of its own (`api.*` decides whether the routes exist; see Routes). Bodies: a JSON object, as
// `application/json` (another content type with a body → 415; not an object → 400; no body → {}). Fields inside the
// root ("user") are read with camelCase keys turned into snake_case (`passwordConfirmation` → `password_confirmation`),
// numbers and booleans as text, anything else ignored. Authentication: `X-User-Email` + `X-User-Token` only (an API
// token; see APITokens); cookies are neither read as authentication nor set, so no CSRF token is needed.
import AccountCore
import AccountRules
import Foundation

/// The JSON API side of one request.
public struct APIContext {
    let context: RequestContext

    /// The body as a JSON object; empty when there is none.
    /// Public for the fuzz targets (fuzz/).
    public func body() throws -> [String: Any] {
        let request = context.request
        let body = request.body
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let type = (request.contentType ?? "").lowercased()
        guard type.hasPrefix("application/json") else {
            throw APIError(status: 415, message: context.catalog.text("api_unsupported_media_type"))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], !Self.holdsNUL(object) else {
            throw APIError(status: 400, message: context.catalog.text("api_bad_request"))
        }
        return object
    }

    /// True when a key or a string anywhere in `value` holds NUL (`\u0000`): refused like malformed JSON, since
    /// PostgreSQL keeps text up to a NUL and SQLite all of it.
    static func holdsNUL(_ value: Any) -> Bool {
        switch value {
        case let text as String: return text.utf8.contains(0)
        case let object as [String: Any]: return object.contains { $0.key.utf8.contains(0) || holdsNUL($0.value) }
        case let array as [Any]: return array.contains(where: holdsNUL)
        default: return false
        }
    }

    /// The fields of the body's `root` object (the whole body when nil, or when it has no such object), keys in
    /// snake_case, values as text.
    /// Public for the fuzz targets (fuzz/).
    public func fields(root: String? = "user") throws -> [String: String] {
        Self.fields(of: try body(), root: root)
    }

    /// The fields of `body`'s `root` object (all of `body` when nil), as `fields(root:)` reads them.
    /// Public for the fuzz targets (fuzz/).
    public static func fields(of body: [String: Any], root: String?) -> [String: String] {
        let object = root.flatMap { body[$0] as? [String: Any] } ?? (root == nil ? body : [:])
        var fields: [String: String] = [:]
        for (key, value) in object {
            let text: String
            if let string = value as? String {
                text = string
            } else if let number = value as? NSNumber, !(value is NSNull) {
                text = number.stringValue
            } else {
                continue
            }
            fields[snakeCase(key)] = text
        }
        return fields
    }

    /// `passwordConfirmation` → `password_confirmation`; snake_case stays.
    /// Public for the fuzz targets (fuzz/).
    /// By scalar, not by character: a capital followed by a combining mark is one character that is not ASCII.
    public static func snakeCase(_ key: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in key.unicodeScalars {
            if (0x41...0x5A).contains(scalar.value) {
                if !out.isEmpty { out.append("_") }
                out.append(Unicode.Scalar(scalar.value + 0x20)!)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The token the request authenticates with (echoed back in the user JSON).
    var token: String? { context.request.header("X-User-Token").flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether the request carries any API credentials.
    var hasCredentials: Bool { context.request.header("X-User-Email") != nil || token != nil }

    /// The live API session of `X-User-Email` + `X-User-Token`; 401 otherwise.
    func requireSession() throws -> SessionInfo {
        let email = context.request.header("X-User-Email") ?? ""
        if let token, let session = try context.core.apiTokens.find(email: email, token: token) {
            try requireTwoFactorsWhenRequired(session)
            return session
        }
        if hasCredentials { context.site.logger.info("api token refused", metadata: ["path": "\(context.request.path)"]) }
        throw APIError.unauthorized(context.catalog.text("api_unauthenticated"))
    }

    /// Under `second_factor: required`, a token of one factor (its account has no second factor yet, or it was issued
    /// before the policy) does nothing: 403 `second_factor_enrolment_required`. The pages and the gate apply the same
    /// policy on their own (RequestContext+SecondFactor, Gate).
    func requireTwoFactorsWhenRequired(_ session: SessionInfo) throws {
        guard context.site.configuration.secondFactor == .required, session.factors < 2 else { return }
        throw APIError.secondFactorEnrolmentRequired(context.catalog)
    }

    /// A token just issued, checked by the same policy before the app sees it: under `second_factor: required`, one of
    /// one factor is revoked at once and the answer is that 403, so no app holds a token that can do nothing.
    func handOver(_ grant: SessionGrant) throws {
        guard context.site.configuration.secondFactor == .required, grant.session.factors < 2 else { return }
        try call { try context.core.apiTokens.signOut(session: grant.session.digest, client: context.client) }
        throw APIError.secondFactorEnrolmentRequired(context.catalog)
    }

    /// `{"user": …}` for `accountId`, with `token` as authenticationToken (null when nil).
    func userResponse(accountId: Int64, token: String?, status: Int) throws -> Response {
        userResponse(try user(accountId), token: token, status: status)
    }

    /// The account as the user object describes it: the summary, its username (made now for an account an older host
    /// created) and its declared profile fields.
    func user(_ accountId: Int64) throws -> APIUser {
        let core = context.core
        return try call {
            var user = try core.apiTokens.summary(of: accountId)
            if user.username.isEmpty { user.username = try core.usernames.ensure(accountId: accountId, address: user.email) }
            user.profile = try core.profile.values(of: accountId).fields
            return user
        }
    }

    /// `{"user": {…}}`: devise-ios's keys, then `username`, `displayName`, and the declared profile fields twice: each at
    /// the top level under its name, as devise-ios reads a user's custom properties back (a built-in key wins over a
    /// field of the same name), and all of them in `profile` (a field name to value map, never shadowed).
    func userResponse(_ user: APIUser, token: String?, status: Int) -> Response {
        var object: [String: Any] = user.profile
        object.merge(["id": user.id, "email": user.email, "authenticationToken": token ?? NSNull(),
                      "createdAt": Self.timestamp(user.createdAt), "updatedAt": Self.timestamp(user.updatedAt),
                      "username": user.username, "displayName": user.displayName, "profile": user.profile]) { _, builtIn in builtIn }
        if let pending = user.pendingEmail { object["unconfirmedEmail"] = pending }
        return .json(["user": object], status: status)
    }

    /// Runs an account operation, turning its `AccountError` into the API's answer (`provider` for the messages that
    /// name one).
    @discardableResult
    func call<T>(provider: String = "", _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch AccountError.secondFactorRequired(let challenge) {
            throw secondFactorRequired(challenge)
        } catch let error as AccountError {
            throw APIError.from(error, catalog: context.catalog, provider: provider)
        }
    }

    /// 401 second_factor_required with `challenge` and its expiry: made just now, with the core's lifetime.
    func secondFactorRequired(_ challenge: String) -> APIError {
        .secondFactorRequired(challenge: challenge, catalog: context.catalog,
                              expiresAt: context.core.clock.now() + context.core.configuration.secondFactor.challengeLifetime)
    }

    /// "2026-11-24T10:00:00.000Z" (UTC, milliseconds), as Rails writes times in JSON: the log lines' form.
    static func timestamp(_ date: Date) -> String { JSONLogHandler.timestamp(date) }
}

extension RequestContext {
    /// The JSON API side of this request (under `<base>/v1/`).
    var api: APIContext { APIContext(context: self) }
}
