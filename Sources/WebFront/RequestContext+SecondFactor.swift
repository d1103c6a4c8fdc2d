// RequestContext+SecondFactor.swift: the `second_factor: required` policy on the pages: a session with one factor
// (an account without a second factor, or one whose sign-in did not ask it) may use only the pages that lead to two
// factors, and sign out.
//
// Options: `second_factor` (AppConfiguration; AccountCore's SecondFactorPolicy). Enforced in three places, each
// without the others' help: here for every page and form (Frontdoor.route, before the handler, so no page can forget
// it); at the gate (Gate.swift: a one-factor session is answered as for `FRONTDOOR_REQUIRE=2fa`, so nginx sends it to
// the second step); the JSON API is the API's own (docs/native-apps.md). The way out is always the second step's page
// (`sign_in/second_factor`), which steps the session up, or links to the enrolment (`settings/two_step`) when the
// account has no second factor yet.
import AccountCore

extension RequestContext {
    /// The routes a one-factor session may use under `second_factor: required` (each with the routes below it).
    static let routesBeforeTwoFactors = ["sign_in/second_factor", "settings/two_step", "settings/passkeys", "passkeys",
                                         "settings/reauthenticate", "sign_out", "sign_in", "switch", "language", "confirm", "health"]

    /// Under `second_factor: required`, a redirect to the second step's page (which comes back here) for a session with
    /// one factor on any other route; nothing otherwise.
    func requireTwoFactorsWhenRequired() throws {
        guard site.configuration.secondFactor == .required, let session = try session(), session.factors < 2 else { return }
        let route = site.paths.route(forRequestPath: request.path) ?? ""
        guard !Self.routesBeforeTwoFactors.contains(where: { route == $0 || route.hasPrefix($0 + "/") }) else { return }
        let back = request.method == "GET" ? request.uri : site.paths.home
        if request.method == "POST" { flash.set(Flash("second_factor_enrol_required", kind: .alert)) }
        throw HTTPError.redirect(to: site.paths.path("sign_in/second_factor") + "?rd=" + FormData.encode(back), afterPost: request.method == "POST")
    }
}
