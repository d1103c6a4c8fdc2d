// ProviderTokenAPI.swift: `GET <base>/internal/provider_token?provider=<id>&account=<id>` (or `&email=<address>`):
// the operator's backend reads the provider's current access token for an account, to call the provider's API for it.
//
// Options (config section `social`): `token_allowed_addresses` (addresses and CIDR ranges) may ask; so may a request
// nginx marks with `fastcgi_param FRONTDOOR_INTERNAL 1` (an `internal` location). Anyone else gets the ordinary 404
// page. An access token that has expired (or expires within 30 s) is refreshed first when there is a refresh token,
// and the new tokens are stored (sealed) again.
// Answers: 200 {"access_token","token_type","scope","expires_at"} (unix seconds or null); 400 {"error":"bad_request"};
// 404 {"error":"not_found"} (no such account, link or token; "token_unreadable" when sealed under another key); 502 {"error":"refresh_failed"} (the provider refused or
// did not answer; the old token is kept).
import AccountCore
import Foundation
import IPAddresses
import OAuthClient

struct ProviderTokenAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let clock: any Clock
    let socialLinks: SocialLinks
    init(_ core: AccountServices) { (clock, socialLinks) = (core.clock, core.socialLinks) }

    func show(_ context: RequestContext) throws -> Response {
        guard context.isInternalCaller(allowed: context.site.configuration.social.tokenAllowedAddressList) else { throw HTTPError.notFound }
        let query = context.query
        let links = socialLinks
        guard let id = query["provider"], let provider = context.site.social.provider(id) else {
            return .json(["error": "not_found"], status: 404)
        }
        let accountId: Int64?
        if let raw = query["account"] {
            guard let number = Int64(raw) else { return .json(["error": "bad_request"], status: 400) }
            accountId = number
        } else if let email = query["email"] {
            accountId = try links.accountId(forEmail: email)
        } else {
            return .json(["error": "bad_request"], status: 400)
        }
        let stored: (tokens: Data, expiresAt: Date?)?
        do { stored = try accountId.flatMap { try links.tokens(accountId: $0, provider: id) } } catch let error as TokenVaultError {
            // Sealed under another key (social.token_key_file replaced): the person must sign in with the provider again.
            context.site.logger.error("provider tokens cannot be opened", metadata: ["provider": "\(id)", "reason": "\(error)"])
            return .json(["error": "token_unreadable"], status: 404)
        }
        guard let accountId, let stored, var tokens = try? JSONDecoder().decode(ProviderTokens.self, from: stored.tokens) else {
            return .json(["error": "not_found"], status: 404)
        }
        let now = clock.now()
        if let expiresAt = tokens.expiresAt, expiresAt <= now.addingTimeInterval(30), tokens.refreshToken != nil {
            do {
                tokens = try provider.refresh(tokens)
                try links.storeTokens(accountId: accountId, provider: id, tokens: try JSONEncoder().encode(tokens), expiresAt: tokens.expiresAt)
            } catch let error as OAuthError {
                context.site.logger.warning("provider token refresh failed", metadata: ["provider": "\(id)", "account": "\(accountId)",
                                                                                        "reason": "\(error)"])
                return .json(["error": "refresh_failed"], status: 502)
            }
        }
        return .json(["access_token": tokens.accessToken, "token_type": tokens.tokenType, "scope": tokens.scope ?? NSNull(),
                      "expires_at": tokens.expiresAt.map { Int64($0.timeIntervalSince1970) } ?? NSNull()])
    }
}
