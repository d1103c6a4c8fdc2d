// FrontdoorClientError.swift: every way a client call can fail, and how an HTTP answer becomes one.
//
// Options: none. The server's two error shapes (docs/native-apps.md):
//   401 {"error":"<message>"}                                       → .unauthorized(message:)
//   401 {"error","reason":"second_factor_required","challenge","challengeExpiresAt"} → .secondFactorRequired(challenge)
//   401 {"error","reason":"second_factor_expired"}                  → .secondFactorExpired(message:)
//   4xx {"error":{"message","code","status"[,"errors":{field:[…]}]}} → by status: 403 .forbidden, 404 .notFound,
//       409 .pending, 422 .validation(message:fields:), 429 .throttled, anything else .server(status:message:)
// The message is the server's own sentence, ready to show. Problems found before sending (AccountRules' validators)
// are .invalid(ValidationErrors); a connection that failed on every attempt is .connection; a 2xx answer that is not
// the JSON expected is .invalidResponse; a call that needs a signed-in account without one is .notSignedIn. The
// provider sign-in adds .openIDRefused (the OAuth error code and description) and .openIDStateMismatch.
import AccountRules
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a `FrontdoorClient` call failed.
public enum FrontdoorClientError: Error, Sendable, Equatable {
    /// The values were checked before sending and fail the rules; nothing was sent.
    case invalid(ValidationErrors)
    /// 422: the server's "Validation failed: …" sentence and the full messages by field ("email": […]).
    case validation(message: String, fields: [String: [String]])
    /// 401: not signed in, a revoked or expired token, a failed sign-in, or a sign-in that is not recent enough.
    case unauthorized(message: String)
    /// 401 after a right password (or provider token): the account asks for a code first. Finish with
    /// `completeSignIn(_:code:)` (FrontdoorClient+SecondFactor.swift); nothing is stored until then.
    case secondFactorRequired(SecondFactorChallenge)
    /// 401: the second step's challenge is used up or expired; sign in again from the start.
    case secondFactorExpired(message: String)
    /// 403: sign-up is closed, the residence was refused, or the account must finish signing in with a browser (its
    /// only second factor is a passkey, or the server requires a second factor it has not set up yet). The message says
    /// which, in the person's words.
    case forbidden(message: String)
    /// 404: no such thing (a residence that is unknown, expired, already collected, or whose secret is wrong).
    case notFound(message: String)
    /// 409: the residence is not approved yet.
    case pending
    /// 429: asked too often; try again later.
    case throttled(message: String)
    /// Any other HTTP failure.
    case server(status: Int, message: String)
    /// No answer: the server could not be reached, on any attempt.
    case connection(String)
    /// A successful answer the client cannot read.
    case invalidResponse
    /// The call needs a signed-in account and there is none.
    case notSignedIn
    /// The provider sign-in (FrontdoorClient+OpenID.swift) was refused: the OAuth `error` code the server sent to the
    /// redirect URI or from its token endpoint (access_denied, login_required, invalid_grant …) and its description.
    case openIDRefused(error: String, message: String)
    /// The browser came back to another URL than the redirect URI, or without the `state` this sign-in sent.
    case openIDStateMismatch

    /// The server's message, or a description of a client-side problem (English).
    public var message: String {
        switch self {
        case .invalid(let errors):
            return errors.fieldNames.flatMap { errors.messages(for: $0, in: .english) }.joined(separator: ", ")
        case .validation(let message, _), .unauthorized(let message), .forbidden(let message), .notFound(let message),
             .throttled(let message), .server(_, let message), .secondFactorExpired(let message), .openIDRefused(_, let message):
            return message
        case .secondFactorRequired(let challenge): return challenge.message
        case .pending: return "The request is waiting for approval."
        case .connection(let reason): return "The server could not be reached: \(reason)"
        case .invalidResponse: return "The server's answer could not be read."
        case .notSignedIn: return "Not signed in."
        case .openIDStateMismatch: return "The sign-in came back with an answer to another request."
        }
    }

    /// The error an HTTP answer with a failure status stands for.
    static func from(status: Int, body: Data) -> FrontdoorClientError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        var message = ""
        var fields: [String: [String]] = [:]
        if let text = object["error"] as? String {
            message = text
        } else if let error = object["error"] as? [String: Any] {
            message = error["message"] as? String ?? ""
            for (field, messages) in error["errors"] as? [String: Any] ?? [:] {
                fields[field] = (messages as? [Any])?.compactMap { $0 as? String } ?? (messages as? String).map { [$0] } ?? []
            }
        }
        if message.isEmpty { message = HTTPURLResponse.localizedString(forStatusCode: status) }
        switch status {
        case 401 where object["reason"] as? String == "second_factor_required":
            guard let token = object["challenge"] as? String, !token.isEmpty else { return .unauthorized(message: message) }
            let expiresAt = (object["challengeExpiresAt"] as? String).flatMap(Wire.parseDate)
            return .secondFactorRequired(SecondFactorChallenge(token: token, expiresAt: expiresAt, message: message))
        case 401 where object["reason"] as? String == "second_factor_expired": return .secondFactorExpired(message: message)
        case 401: return .unauthorized(message: message)
        case 403: return .forbidden(message: message)
        case 404: return .notFound(message: message)
        case 409 where object["state"] as? String == "pending": return .pending
        case 422: return .validation(message: message, fields: fields)
        case 429: return .throttled(message: message)
        default: return .server(status: status, message: message)
        }
    }
}

extension FrontdoorClientError: LocalizedError {
    public var errorDescription: String? { message }
}
