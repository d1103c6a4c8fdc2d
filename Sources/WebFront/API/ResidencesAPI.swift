// ResidencesAPI.swift: IIResidenceStore's verifier: `POST <base>/v1/residences` and `POST <base>/v1/residences/{id}/verify`.
//
// Options: `api.residence_lifetime`, `mail.throttle` (one residence mail per address per window). See
// AccountCore's Residences.swift for the flow; the approval page is ResidenceApprovalPage.
//   POST v1/residences {"email"} (or {"residence":{"email"}})  → 201 {"id","state":"pending","secret"} | 422 | 429
//   POST v1/residences/{id}/verify {"secret"}                   → 200 {"email","state":"verified","token"} once approved
//        | 409 {"state":"pending"} | 403 {"state":"refused","error":{…}} | 404 (unknown, expired, wrong secret, collected)
//        | 401 second_factor_required + challenge, once approved, for an account with a second factor (the mailed link is
//          one factor; finished at v1/users/sign_in/second_factor like a password sign-in)
import AccountCore
import Foundation

/// Registering and collecting email residences.
struct ResidencesAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let residences: Residences
    init(_ core: AccountServices) { residences = core.residences }

    static let prefix = "v1/residences/"
    static let suffix = "/verify"

    func register(_ context: RequestContext) throws -> Response {
        let body = try context.api.body()
        let fields = APIContext.fields(of: body, root: body["residence"] is [String: Any] ? "residence" : nil)
        let catalog = context.catalog
        let ticket: ResidenceTicket
        do {
            ticket = try residences.register(email: (fields["email"] ?? "").trimmingCharacters(in: .whitespaces),
                                             client: context.client)
        } catch AccountError.refused("residence_throttled") {
            throw APIError(status: 429, message: catalog.text("residence_throttled"),
                           headers: ["Retry-After": String(Int(context.site.configuration.mail.throttle.rounded(.up)))])
        } catch let error as AccountError {
            throw APIError.from(error, catalog: catalog)
        }
        return .json(["id": ticket.id, "state": "pending", "secret": ticket.secret], status: 201)
    }

    /// `route` is `v1/residences/<id>/verify`.
    func verify(_ context: RequestContext, route: String) throws -> Response {
        let id = String(route.dropFirst(Self.prefix.count).dropLast(Self.suffix.count))
        let fields = try context.api.fields(root: nil)
        let catalog = context.catalog
        let collection: ResidenceCollection
        do {
            collection = try residences.collect(id: id, secret: fields["secret"] ?? "", client: context.client)
        } catch AccountError.notFound {
            throw APIError(status: 404, message: catalog.text("residence_not_found"))
        } catch AccountError.secondFactorRequired(let challenge) {
            throw context.api.secondFactorRequired(challenge)
        }
        switch collection {
        case .pending:
            return .json(["state": "pending"], status: 409)
        case .refused(let key):
            throw APIError(status: 403, message: catalog.text(key), state: "refused")
        case let .verified(email, grant):
            return .json(["email": email, "state": "verified", "token": grant.token.encoded])
        }
    }

    /// Whether `route` names a residence's verify action (`v1/residences/<id>/verify`, one path segment for the id).
    static func isVerifyRoute(_ route: String) -> Bool {
        route.hasPrefix(prefix) && route.hasSuffix(suffix) && route.count > prefix.count + suffix.count
            && !route.dropFirst(prefix.count).dropLast(suffix.count).contains("/")
    }
}
