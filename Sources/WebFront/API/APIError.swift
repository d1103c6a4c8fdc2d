// APIError.swift: the JSON API's errors, in devise-ios's two shapes, and how account errors become them.
//   401 {"error":"<message>"}                                    authentication (Devise's FailureApp)
//   401 {"error":"<message>","reason":"second_factor_required","challenge":"…","challengeExpiresAt":"…"}
//                                                                a right password (or provider token) of an account
//                                                                with a second factor: SecondFactorAPI finishes it
//   401 {"error":"<message>","reason":"second_factor_expired"}   that challenge is used up or expired
//   403 {"error":{…},"reason":"second_factor_enrolment_required"} `second_factor: required` and the account has no
//                                                                second factor yet: set one up on the web first
//   403 {"error":{…},"reason":"second_factor_browser_only"}      the account's only second factors are passkeys, which
//                                                                an app cannot present: sign in with a browser
//   4xx {"error":{"message":"…","code":0,"status":4xx}}          everything else (devise-ios-rails' ErrorsSerializer),
//       with "errors": {field: [full messages]} inside "error" for validation; + top-level "state" for a residence
// `Frontdoor.respond` turns a thrown APIError into its response, like HTTPError for pages; an HTTPError (404, 405, 413)
// or an unexpected error on an API route is answered in the second shape too.
import AccountCore
import AccountRules
import Foundation

/// An API failure: the status, the message people read, and what else the body carries.
struct APIError: Error, Sendable {
    var status: Int
    var message: String
    /// Validation: field → full messages.
    var fields: [String: [String]] = [:]
    /// A residence's state, for 403 refused.
    var state: String?
    var headers: [String: String] = [:]
    /// For a 401 an app must tell apart from a failed sign-in: `second_factor_required`, `second_factor_expired`.
    var reason: String?
    /// With `second_factor_required`: the challenge to send back with the code, and when it expires.
    var challenge: String?
    var challengeExpiresAt: Date?

    /// 401 with the plain `{"error": message}` body.
    static func unauthorized(_ message: String) -> APIError { APIError(status: 401, message: message) }

    /// 401: the account asks for a second factor; `challenge` goes back with the code to SecondFactorAPI.
    static func secondFactorRequired(challenge: String, catalog: MessageCatalog, expiresAt: Date? = nil) -> APIError {
        APIError(status: 401, message: catalog.text("api_second_factor_required"), reason: "second_factor_required",
                 challenge: challenge, challengeExpiresAt: expiresAt)
    }

    /// 401: the second step's challenge is used up, expired or not one of the API's: start over with the password.
    static func secondFactorExpired(_ catalog: MessageCatalog) -> APIError {
        APIError(status: 401, message: catalog.text("api_second_factor_expired"), reason: "second_factor_expired")
    }

    /// 403: `second_factor: required`, and the token's account has no second factor yet (its owner sets one up in
    /// the browser, where the pages lead there); the API has no enrolment of its own.
    static func secondFactorEnrolmentRequired(_ catalog: MessageCatalog) -> APIError {
        APIError(status: 403, message: catalog.text("api_second_factor_enrolment_required"), reason: "second_factor_enrolment_required")
    }

    var response: Response {
        var body: [String: Any]
        if status == 401 {
            body = ["error": message]
            if let reason { body["reason"] = reason }
            if let challenge { body["challenge"] = challenge }
            if let challengeExpiresAt { body["challengeExpiresAt"] = APIContext.timestamp(challengeExpiresAt) }
        } else {
            var error: [String: Any] = ["message": message, "code": 0, "status": status]
            if !fields.isEmpty { error["errors"] = fields }
            body = ["error": error]
            if let state { body["state"] = state }
            if let reason { body["reason"] = reason }
        }
        var response = Response.json(body, status: status)
        for (name, value) in headers { response.setHeader(name, value) }
        return response
    }

    /// The API's answer to an account error. `provider` names the provider in provider-sign-in messages.
    static func from(_ error: AccountError, catalog: MessageCatalog, provider: String = "") -> APIError {
        switch error {
        case .invalid(let errors): return validation(errors, catalog: catalog)
        case .invalidCredentials: return .unauthorized(catalog.text("sign_in_failed"))
        case .unconfirmed: return .unauthorized(catalog.text("unconfirmed"))
        case .secondFactorRequired(let challenge): return .secondFactorRequired(challenge: challenge, catalog: catalog)
        case .reauthenticationRequired: return .unauthorized(catalog.text("api_reauthentication_required"))
        case .notFound: return .unauthorized(catalog.text("api_unauthenticated"))
        case .invalidToken: return APIError(status: 422, message: catalog.text("reset_invalid_text"))
        case .signUpClosed: return APIError(status: 403, message: catalog.text("api_sign_up_closed"))
        case .invitationRequired: return APIError(status: 403, message: catalog.text("api_invitation_required"))
        case .refused("second_factor_browser_only"):
            return APIError(status: 403, message: catalog.text("api_second_factor_browser_only"), reason: "second_factor_browser_only")
        case .refused("sign_up_rate_limited"): return APIError(status: 429, message: catalog.text("sign_up_rate_limited_text"))
        case .refused(let key): return APIError(status: 422, message: catalog.text(key, ["provider": provider]))
        }
    }

    /// 422 "Validation failed: Email is invalid, Password can't be blank", with the messages by field.
    static func validation(_ errors: ValidationErrors, catalog: MessageCatalog) -> APIError {
        var fields: [String: [String]] = [:]
        var all: [String] = []
        for name in errors.fieldNames {
            let messages = errors.messages(for: name, in: catalog)
            fields[name] = messages
            all += messages
        }
        return APIError(status: 422, message: catalog.text("api_validation_failed", ["messages": all.joined(separator: ", ")]),
                        fields: fields)
    }
}
