// OpenIDAppsSupport.swift: what the apps part's tests share: the test app with the provider on (site.openID), a
// browser signed in, and an ID token the provider would have issued (signed with the site's OpenID key).
import AccountCore
import Foundation
import Testing
@testable import WebFront

enum OpenIDApps {
    /// `makeApp` with `site.openID` built from the configuration (makeApp leaves it nil), confirmation off.
    static func app(configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
        let test = try makeApp {
            $0.confirmation.required = false
            $0.publicURL = "https://id.example.com"
            configure(&$0)
        }
        let s = test.app.site
        let site = Site(configuration: s.configuration, renderer: s.renderer, csrf: s.csrf, logger: s.logger, browserID: s.browserID,
                        social: s.social, openID: OpenIDServices.make(configuration: s.configuration, database: test.services.database, clock: test.clock))
        return TestApp(app: Frontdoor(site: site, services: test.services), services: test.services, clock: test.clock, outbox: test.outbox)
    }

    /// The site's OpenID signing keys.
    static func keys(_ app: TestApp) -> OpenIDKeys {
        app.app.site.openID!.keys
    }

    /// An ID token for `session` and `clientID` as the token endpoint would sign it (iss, sub, aud, sid, exp …).
    static func idToken(_ app: TestApp, session: SessionInfo, clientID: String, sid: String? = nil, issuer: String? = nil,
                        expiresIn: Int = 3600) throws -> String {
        let client = try #require(try app.services.openIDClients.client(clientID))
        let now = Int(app.clock.now().timeIntervalSince1970)
        return try keys(app).sign([
            "iss": issuer ?? app.app.site.openID!.issuer, "aud": clientID, "iat": now, "exp": now + expiresIn,
            "sub": try app.services.openID.subject(accountID: session.accountId, client: client),
            "sid": sid ?? app.services.openID.sid(sessionDigest: session.digest),
        ])
    }

    /// A grant `clientID` holds in `session` (a code issued and redeemed): what makes a logout tell the client.
    static func grant(_ app: TestApp, session: SessionInfo, clientID: String) throws {
        let client = try #require(try app.services.openIDClients.client(clientID))
        let code = try app.services.openID.issueCode(OpenIDCodeRequest(
            clientID: clientID, redirectURI: client.redirectURIs[0], scopes: ["openid"],
            authentication: OpenIDAuthentication(accountID: session.accountId, sessionDigest: session.digest, authTime: app.clock.now(), factors: 1)))
        _ = try app.services.openID.redeemCode(code, client: client, redirectURI: client.redirectURIs[0], codeVerifier: nil)
    }
}
