// SocialStartAction.swift: `POST <base>/auth/<provider>`: begins an authorization-code flow and sends the browser to
// the provider.
//
// Form: csrf_token; `purpose` sign_in (default: the sign-in and sign-up pages) | link (settings: needs a recent
// sign-in) | reauthenticate (the "confirm it's you" page) | link_pending (the auth/link page: sign in with a provider
// already linked to the account to link the pending one); `rd` (checked return target); `invite` (sign-up page).
// The flow's `state` is single use, bound to this browser's `frontdoor_oauth` cookie and good for 10 minutes; the
// request carries PKCE (S256) always and a nonce for OpenID Connect.
import AccountCore
import OAuthClient

struct SocialStartAction: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let socialFlows: SocialFlows
    init(_ core: AccountServices) { socialFlows = core.socialFlows }

    func submit(_ context: RequestContext, provider id: String) throws -> Response {
        guard let provider = context.site.social.provider(id) else { throw HTTPError.notFound }
        let form = context.form
        let purpose = SocialPurpose(rawValue: form["purpose"] ?? "") ?? .signIn
        var accountId: Int64?
        var pendingToken: String?
        var returnTo = ""
        switch purpose {
        case .signIn:
            if let rd = form["rd"], case let checked = context.returnTarget(rd), checked != context.site.paths.home { returnTo = checked }
        case .link:
            accountId = try context.requireRecentSignIn(returnTo: context.site.paths.path("settings/connections")).accountId
        case .reauthenticate:
            accountId = try context.requireSession().accountId
            returnTo = ReauthenticationPage.localTarget(context, form["rd"])
        case .linkPending:
            guard let token = context.socialPendingToken else {
                context.flash.set(Flash("social_pending_invalid", kind: .alert))
                return context.redirect(to: context.site.paths.signIn())
            }
            pendingToken = token
        }
        let binding = context.socialBinding(create: true) ?? []
        let start = try socialFlows.begin(
            provider: id, purpose: purpose, accountId: accountId, binding: binding, returnTo: returnTo,
            invite: (form["invite"] ?? "").trimmingCharacters(in: .whitespaces), rememberMe: form["remember_me"] == "1",
            pendingToken: pendingToken)
        let location: String
        do {
            location = try provider.authorizationURL(redirectURI: context.socialRedirectURI(id), state: start.state,
                                                     codeChallenge: PKCE.challenge(for: start.codeVerifier),
                                                     nonce: provider.configuration.usesOpenID ? start.nonce : nil)
        } catch let error as OAuthError {
            context.site.logger.warning("social sign-in could not start", metadata: ["provider": "\(id)", "reason": "\(error)"])
            context.flash.set(Flash("social_failed", kind: .alert, provider: id))
            return context.redirect(to: SocialCallbackPage.failurePage(context, purpose: purpose))
        }
        return Response(status: 303, headers: [(name: "Location", value: location)])
    }
}
