// SecondFactorAPI.swift: the second step of a JSON API sign-in, for an account with a second factor.
//   POST v1/users/sign_in/second_factor {"user":{"challenge","code"}}
//        201 user + new token (two factors, a recent sign-in) | 401 wrong code | 401 reason second_factor_expired
// The first step is `POST v1/users/sign_in` (UsersAPI) or `POST v1/users/auth/<provider>` (ProviderTokenSignInAPI): a
// right password or provider token for such an account answers 401 `second_factor_required` with the challenge
// (APIError.secondFactorRequired). Why a 401 and a path of its own: docs/native-apps.md, "The second step".
//
// Options: none of its own; `second_factor` (AccountCore's SecondFactorSignIn: the challenge's lifetime, the codes it
// takes) and `lockout`. A wrong code gets one answer whatever made it wrong (mistyped, empty, used before, account
// locked), as a wrong password does, and counts toward the lockout; a challenge that is used up, expired, or was begun
// by a browser (bound to its binding cookie) is told apart, since the app must then start over with the password.
import AccountCore
import AccountRules
import Foundation

/// `POST <base>/v1/users/sign_in/second_factor`.
struct SecondFactorAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let secondFactor: SecondFactorSignIn
    init(_ core: AccountServices) { secondFactor = core.secondFactor }

    func submit(_ context: RequestContext) throws -> Response {
        let form = try context.api.fields()
        let catalog = context.catalog
        let challenge = form["challenge"] ?? "", code = form["code"] ?? ""
        guard !challenge.isEmpty else { throw APIError.secondFactorExpired(catalog) }
        let grant: SessionGrant
        do {
            grant = try secondFactor.complete(challenge: challenge, proof: .code(code), client: context.client, here: nil, keepPrevious: false)
        } catch AccountError.invalidCredentials {
            throw APIError.unauthorized(catalog.text("api_second_factor_invalid"))
        } catch AccountError.refused("second_factor_expired") {
            throw APIError.secondFactorExpired(catalog)
        } catch let error as AccountError {
            throw APIError.from(error, catalog: catalog)
        }
        return try context.api.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 201)
    }
}
