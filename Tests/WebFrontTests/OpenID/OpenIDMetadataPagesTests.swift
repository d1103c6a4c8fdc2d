// OpenIDMetadataPagesTests.swift: the discovery and JWKS routes as served: JSON anyone may read (CORS open, a short
// cache), the document's jwks_uri answering with the key that signs, a rotation showing in the next JWKS, and both
// routes absent (404) when the provider is off.
import AccountCore
import Foundation
import JOSE
import Testing
@testable import WebFront

@Suite struct OpenIDMetadataPagesTests {
    /// An app whose site has the OpenID provider (`enabled`) and its keys, on the test app's database.
    func app(enabled: Bool = true) throws -> (app: Frontdoor, keys: OpenIDKeys) {
        let test = try makeApp { $0.openID.enabled = enabled }
        let site = test.app.site
        let openID = OpenIDServices.make(configuration: site.configuration, database: test.services.database, clock: test.services.clock)
        let app = Frontdoor(site: Site(configuration: site.configuration, renderer: site.renderer, csrf: site.csrf, logger: site.logger,
                                       openID: openID), services: test.services)
        return (app, OpenIDKeys(database: test.services.database, clock: test.services.clock, grace: site.configuration.openID.keyGrace))
    }

    func object(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func discoveryAndJWKSAreServedUnderTheBasePath() throws {
        let (app, keys) = try app()
        let browser = TestBrowser(app)
        let discovery = browser.get("/account/.well-known/openid-configuration")
        #expect(discovery.status == 200 && discovery.header("Content-Type") == "application/json")
        #expect(discovery.header("Access-Control-Allow-Origin") == "*" && discovery.header("Cache-Control") == "public, max-age=300")
        let document = try object(discovery)
        let issuer = app.site.configuration.openIDIssuer
        #expect(document["issuer"] as? String == issuer)
        let jwksURI = try #require(document["jwks_uri"] as? String)
        #expect(jwksURI == issuer + "/oidc/jwks")
        // The JWKS at jwks_uri's path verifies what the keys sign.
        let path = String(jwksURI.dropFirst(app.site.configuration.publicURL.count))
        let jwks = browser.get(path)
        #expect(jwks.status == 200 && jwks.header("Cache-Control") == "public, max-age=300")
        let listed = try #require(try object(jwks)["keys"] as? [[String: String]])
        let token = try keys.sign(["sub": "42"])
        #expect(try JWS.verified(token, keys: listed.map { try JSONWebKey(members: $0) }).payload["sub"] as? String == "42")
    }

    @Test func aRotationShowsInTheNextJWKS() throws {
        let (app, keys) = try app()
        let browser = TestBrowser(app)
        let before = try #require(try object(browser.get("/account/oidc/jwks"))["keys"] as? [[String: String]])
        #expect(before.count == 1)
        try keys.rotate()
        let after = try #require(try object(browser.get("/account/oidc/jwks"))["keys"] as? [[String: String]])
        #expect(after.count == 2 && after[1]["kid"] == before[0]["kid"] && after[0]["kid"] != before[0]["kid"])
    }

    @Test func theRoutesAreAbsentWhenTheProviderIsOff() throws {
        let (app, _) = try app(enabled: false)
        let browser = TestBrowser(app)
        #expect(browser.get("/account/.well-known/openid-configuration").status == 404)
        #expect(browser.get("/account/oidc/jwks").status == 404)
    }
}
