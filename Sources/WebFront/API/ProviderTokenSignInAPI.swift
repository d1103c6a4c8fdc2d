// ProviderTokenSignInAPI.swift: `POST <base>/v1/users/auth/{facebook,google}`: sign-in with a token a native app got
// from the provider's SDK: {"user":{"provider","oauth_token","uid"?,"email"?}} → 201 user with a new API token.
//
// Options: the `social.providers` entry for the provider: the one whose id is `facebook` / `google`, else the first
// with that preset; its `tokeninfo_endpoint` and `native_client_ids` (see OAuthClient's NativeToken.swift). The token is
// checked with the provider (never trusted as sent); `uid`, when sent, must be the subject the provider names; the
// `email` sent is ignored (only the provider's verified address counts). Then the behaviour table of
// SocialSignIn+Native.swift. Every refusal is a 422 error object naming the provider; the provider unreachable is 502.
import AccountCore
import FastCGI
import Foundation
import OAuthClient

/// Sign-in with a provider's token from a native app.
struct ProviderTokenSignInAPI: Sendable {
    func submit(_ context: RequestContext, kind: ProviderKind) throws -> Response {
        let form = try context.apiFields()
        let catalog = context.catalog
        let providers = context.site.social.providers
        guard let provider = providers.first(where: { $0.configuration.id == kind.rawValue && $0.configuration.kind == kind })
                ?? providers.first(where: { $0.configuration.kind == kind }) else {
            throw APIError(status: 422, message: catalog.text("api_provider_not_configured", ["provider": kind.preset.displayName]))
        }
        let id = provider.configuration.id, name = provider.configuration.displayName
        let invalid = APIError(status: 422, message: catalog.text("api_provider_token_invalid", ["provider": name]))
        guard let token = form["oauth_token"], !token.isEmpty else { throw invalid }
        let identity: ProviderIdentity
        do {
            identity = try provider.identity(fromNativeToken: token)
        } catch OAuthError.unreachable(let reason) {
            context.site.logger.warning("provider token not checked", metadata: ["provider": "\(id)", "reason": "\(reason)"])
            throw APIError(status: 502, message: catalog.text("api_provider_unreachable", ["provider": name]))
        } catch {
            context.site.logger.info("provider token refused", metadata: ["provider": "\(id)", "reason": "\(error)"])
            throw invalid
        }
        if let uid = form["uid"], !uid.isEmpty, uid != identity.subject {
            context.site.logger.info("provider token refused", metadata: ["provider": "\(id)", "reason": "uid is not the token's subject"])
            throw invalid
        }
        let external = ExternalIdentity(provider: id, subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified,
                                        displayName: identity.name ?? identity.username ?? "",
                                        tokens: try JSONEncoder().encode(identity.tokens), tokenExpiresAt: identity.tokens.expiresAt)
        let (grant, _) = try context.apiCall(provider: name) {
            try context.site.services.social.signInWithProviderToken(external, client: context.client)
        }
        return try context.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 201)
    }
}
