// SocialCallbackPage.swift: `GET <base>/auth/<provider>/callback`: the provider sends the browser back here with
// `code` and `state` (or `error`). The flow is used up first, whatever the answer, so a state works once.
//
// Outcomes (the behaviour table of docs/operations.md): consent denied → sign-in page, "You cancelled signing in with X"; the
// provider unreachable, an error, or a token that fails a check → sign-in page, "We couldn't sign you in with X",
// nothing created; a bad, used or expired state → "That sign-in attempt has expired or was already used"; otherwise
// AccountCore's SocialSignIn decides: signed in (or signed up), an address to ask (auth/email), an account to sign in
// to first (auth/link), several accounts to choose from first (auth/pick), linked (settings), or re-authenticated
// (back to the page that asked). A sign-in passes every address the provider verified (GitHub lists several) and the
// accounts signed in in this browser, the picker's candidates.
// Flows begun from the settings (link, reauthenticate) end on the settings when they fail. An account with a second
// factor goes on to its second step (SecondFactorPage) instead of being signed in.
import AccountCore
import Foundation
import OAuthClient

struct SocialCallbackPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let social: SocialSignIn
    let socialFlows: SocialFlows
    init(_ core: AccountServices) { (social, socialFlows) = (core.social, core.socialFlows) }

    func show(_ context: RequestContext, provider id: String) throws -> Response {
        guard let provider = context.site.social.provider(id) else { throw HTTPError.notFound }
        let query = context.query
        let binding = context.socialBinding(create: false) ?? []
        let flow: SocialFlow
        do {
            flow = try socialFlows.finish(state: query["state"] ?? "", provider: id, binding: binding)
        } catch AccountError.refused(let key) {
            return fail(context, key, provider: id, purpose: nil)
        }
        if let error = query["error"] {
            if error != "access_denied" {
                context.site.logger.warning("social sign-in refused by the provider", metadata: ["provider": "\(id)", "error": "\(error.prefix(64))"])
            }
            return fail(context, error == "access_denied" ? "social_cancelled" : "social_failed", provider: id, purpose: flow.purpose)
        }
        guard let code = query["code"], !code.isEmpty else { return fail(context, "social_failed", provider: id, purpose: flow.purpose) }
        let identity: ProviderIdentity
        do {
            identity = try provider.exchange(code: code, redirectURI: context.socialRedirectURI(id), codeVerifier: flow.codeVerifier,
                                             nonce: provider.configuration.usesOpenID ? flow.nonce : nil)
        } catch let error as OAuthError {
            context.site.logger.warning("social sign-in failed", metadata: ["provider": "\(id)", "reason": "\(error)"])
            return fail(context, "social_failed", provider: id, purpose: flow.purpose)
        }
        // A sign-in may meet several candidate accounts (the picker): every address the provider verified, and the
        // accounts signed in in this browser.
        let picking = flow.purpose == .signIn && identity.emailVerified
        let external = ExternalIdentity(provider: id, subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified,
                                        displayName: identity.name ?? identity.username ?? "",
                                        tokens: try JSONEncoder().encode(identity.tokens), tokenExpiresAt: identity.tokens.expiresAt,
                                        otherVerifiedEmails: picking ? identity.otherVerifiedEmails : [])
        let browserAccounts = picking ? try context.browserAccountIds() : []
        let signingIn = flow.purpose == .signIn || flow.purpose == .linkPending
        // The identity a link_pending flow links is named in the flash; read it before the step uses it up.
        let pendingProvider = flow.purpose == .linkPending ? (try? context.socialPending())?.provider : nil
        do {
            let outcome = try social.complete(
                external, flow: flow, binding: binding, session: context.session(),
                client: context.client, here: signingIn ? context.browserTokens : nil, browserAccounts: browserAccounts)
            return try respond(context, outcome, flow: flow, provider: id, pendingProvider: pendingProvider)
        } catch AccountError.signUpClosed {
            return fail(context, "social_sign_up_closed", provider: id, purpose: flow.purpose)
        } catch AccountError.invitationRequired {
            return fail(context, "social_invitation_required", provider: id, purpose: flow.purpose)
        } catch AccountError.unconfirmed {
            context.flash.set(Flash("unconfirmed", kind: .alert))
            return context.redirect(to: context.site.paths.signIn())
        } catch AccountError.secondFactorRequired(let challenge) {
            // The provider was one factor: the account's second step follows (the challenge is bound to this browser's
            // binding cookie, which the flow already has). A link waiting for this sign-in is not made on one factor;
            // after the second step the person links the provider from the settings.
            context.site.logger.info("social sign-in needs the second factor", metadata: ["provider": "\(id)"])
            let linking = flow.purpose == .linkPending
            if linking { context.setSocialPending(nil) }
            let returnTo = linking ? context.site.paths.path("settings/connections") : (flow.returnTo.isEmpty ? nil : flow.returnTo)
            return SecondFactorPage.begin(context, challenge: challenge, returnTo: returnTo, adding: false)
        } catch AccountError.refused(let key) {
            return fail(context, key, provider: id, purpose: flow.purpose)
        }
    }

    private func respond(_ context: RequestContext, _ outcome: SocialOutcome, flow: SocialFlow, provider id: String,
                         pendingProvider: String?) throws -> Response {
        let paths = context.site.paths
        switch outcome {
        case .signedIn(let grant, let created):
            try context.startSession(grant, keepPrevious: false)
            context.setSocialPending(nil)
            context.flash.set(created ? Flash("social_signed_up", provider: id)
                              : pendingProvider.map { Flash("social_linked", provider: $0) } ?? Flash("signed_in"))
            return context.redirect(to: context.returnTarget(flow.returnTo.isEmpty ? nil : flow.returnTo))
        case .needsEmail(let token):
            context.setSocialPending(token)
            return context.redirect(to: paths.path("auth/email"))
        case .needsLink(let token):
            context.setSocialPending(token)
            return context.redirect(to: paths.path("auth/link"))
        case .needsPick(let tokens):
            context.setSocialPending(nil)
            context.setSocialPick(tokens)
            return context.redirect(to: paths.path("auth/pick"))
        case .linked:
            context.flash.set(Flash("social_linked", provider: id))
            return context.redirect(to: paths.path("settings/connections"))
        case .reauthenticated:
            context.flash.set(Flash("reauthenticated"))
            return context.redirect(to: ReauthenticationPage.localTarget(context, flow.returnTo))
        }
    }

    /// Back to where the flow began, with the message `key` naming the provider.
    private func fail(_ context: RequestContext, _ key: String, provider: String, purpose: SocialPurpose?) -> Response {
        context.flash.set(Flash(key, kind: .alert, provider: provider))
        return context.redirect(to: Self.failurePage(context, purpose: purpose))
    }

    /// Where a failed flow lands: the settings for flows begun there, else the sign-in page.
    static func failurePage(_ context: RequestContext, purpose: SocialPurpose?) -> String {
        switch purpose {
        case .link: context.site.paths.path("settings/connections")
        case .reauthenticate: context.site.paths.path("settings/reauthenticate")
        default: context.site.paths.signIn()
        }
    }
}
