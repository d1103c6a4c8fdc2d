// APIError.swift: the JSON API's errors, in devise-ios's two shapes, and how account errors become them.
//   401 {"error":"<message>"}                                    authentication (Devise's FailureApp)
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

    /// 401 with the plain `{"error": message}` body.
    static func unauthorized(_ message: String) -> APIError { APIError(status: 401, message: message) }

    var response: Response {
        var body: [String: Any]
        if status == 401 {
            body = ["error": message]
        } else {
            var error: [String: Any] = ["message": message, "code": 0, "status": status]
            if !fields.isEmpty { error["errors"] = fields }
            body = ["error": error]
            if let state { body["state"] = state }
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
        case .reauthenticationRequired: return .unauthorized(catalog.text("api_reauthentication_required"))
        case .notFound: return .unauthorized(catalog.text("api_unauthenticated"))
        case .invalidToken: return APIError(status: 422, message: catalog.text("reset_invalid_text"))
        case .signUpClosed: return APIError(status: 403, message: catalog.text("api_sign_up_closed"))
        case .invitationRequired: return APIError(status: 403, message: catalog.text("api_invitation_required"))
        case .refused("sign_up_rate_limited"): return APIError(status: 429, message: catalog.text("sign_up_rate_limited_text"))
        case .refused(let key): return APIError(status: 422, message: catalog.text(key, ["provider": provider]))
        case .secondFactorRequired: return .unauthorized(catalog.text("second_factor_required"))
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
