// ProviderPresetsTests.swift: the defaults each preset fills into a ProviderConfiguration.
import OAuthClient
import Testing

@Suite struct ProviderPresetsTests {
    @Test(arguments: [
        (ProviderKind.oidc, "corp", TokenEndpointAuth.basic, true), (.google, "Google", .basic, true), (.github, "GitHub", .post, false),
        (.facebook, "Facebook", .post, false), (.twitter, "X", .basic, false),
    ])
    func presetsFillNameAuthAndProtocol(kind: ProviderKind, name: String, auth: TokenEndpointAuth, openID: Bool) {
        let configuration = ProviderConfiguration(id: "corp", kind: kind, clientID: "id", clientSecret: "secret")
        #expect(configuration.displayName == name && configuration.tokenEndpointAuth == auth && configuration.usesOpenID == openID)
        #expect(!configuration.scopes.isEmpty && configuration.scopes.contains("openid") == openID)
        #expect(configuration.tokenEndpoint.isEmpty == openID, "OpenID Connect endpoints come from discovery")
    }

    @Test func googleHasItsIssuerAndGitHubItsEmailsEndpoint() {
        #expect(ProviderConfiguration(id: "g", kind: .google, clientID: "", clientSecret: "").issuer == "https://accounts.google.com")
        let github = ProviderConfiguration(id: "gh", kind: .github, clientID: "", clientSecret: "")
        #expect(github.emailsEndpoint == "https://api.github.com/user/emails" && github.issuer.isEmpty)
        #expect(github.tokenEndpoint == "https://github.com/login/oauth/access_token")
    }

    @Test func everyPresetEndpointIsAnAllowedURL() {
        for kind in ProviderKind.allCases {
            let preset = kind.preset
            for url in [preset.issuer, preset.authorizationEndpoint, preset.tokenEndpoint, preset.userInfoEndpoint, preset.emailsEndpoint]
            where !url.isEmpty {
                #expect(ProviderURL.isAllowed(url) && url.hasPrefix("https://"), "\(kind): \(url)")
            }
        }
    }
}
