// SocialProvidersConfigTests.swift: reading, checking and printing `social.providers`.
import Foundation
import OAuthClient
import Testing
@testable import WebFront

@Suite struct SocialProvidersConfigTests {
    /// The providers of a file whose `social.providers` list is `entries` (indented under it).
    private func providers(_ entries: String) throws -> [ProviderConfiguration] {
        try ConfigReader.parseFile(yaml: "social:\n  providers:\n" + entries.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }.joined(separator: "\n") + "\n").providers
    }

    @Test func presetsFillTheirDefaults() throws {
        let list = try providers("""
            - id: github
              client_id: gh-id
              client_secret: gh-secret
            - id: google
              client_id: g-id
              client_secret: g-secret
            - id: x
              preset: twitter
              client_id: x-id
              client_secret: x-secret
            """)
        #expect(list.map(\.id) == ["github", "google", "x"])
        #expect(list[0] == ProviderConfiguration(id: "github", kind: .github, clientID: "gh-id", clientSecret: "gh-secret"))
        #expect(list[1].issuer == "https://accounts.google.com" && list[1].displayName == "Google" && list[1].usesOpenID)
        #expect(list[2].kind == .twitter && list[2].displayName == "X" && list[2].scopes == ["users.read", "tweet.read", "offline.access"])
        // "x" is the twitter preset's other name, so an entry with id x needs no preset line
        let bare = try providers("- id: x\n  client_id: x-id\n  client_secret: x-secret")
        #expect(bare.first?.kind == .twitter && bare.first?.id == "x")
    }

    @Test func everyOptionIsRead() throws {
        let secretFile = NSTemporaryDirectory() + "frontdoor-secret-\(UUID().uuidString)"
        try "  file-secret\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secretFile) }
        let list = try providers("""
            - id: corp
              preset: oidc
              name: Corp SSO
              client_id: abc
              client_secret_file: \(secretFile)
              issuer: http://127.0.0.1:9000
              scopes: [openid, email, groups]
              authorization_endpoint: http://127.0.0.1:9000/authorize
              token_endpoint: https://sso.example.com/token
              userinfo_endpoint: http://[::1]:9000/userinfo
              token_auth: post
            - id: gh-enterprise
              preset: github
              client_id: id
              client_secret: s
              scopes: "read:user  user:email"
              emails_endpoint: https://ghe.example.com/api/v3/user/emails
            """)
        var corp = ProviderConfiguration(id: "corp", kind: .oidc, clientID: "abc", clientSecret: "file-secret")
        corp.displayName = "Corp SSO"
        corp.issuer = "http://127.0.0.1:9000"
        corp.scopes = ["openid", "email", "groups"]
        corp.authorizationEndpoint = "http://127.0.0.1:9000/authorize"
        corp.tokenEndpoint = "https://sso.example.com/token"
        corp.userInfoEndpoint = "http://[::1]:9000/userinfo"
        corp.tokenEndpointAuth = .post
        #expect(list[0] == corp)
        #expect(list[1].scopes == ["read:user", "user:email"] && list[1].emailsEndpoint == "https://ghe.example.com/api/v3/user/emails")
        #expect(list[1].tokenEndpoint == "https://github.com/login/oauth/access_token")
    }

    @Test func nativeTokenOptionsAreRead() throws {
        let list = try providers("""
            - id: google
              client_id: web.apps
              client_secret: s
              tokeninfo_endpoint: http://127.0.0.1:9000/tokeninfo
              native_client_ids: [ios.apps, android.apps, ios.apps]
            - id: facebook
              client_id: "1001"
              client_secret: s
              native_client_ids: " 2002 ,3003, "
            - id: fb-test
              preset: facebook
              client_id: "1001"
              client_secret: s
              tokeninfo_endpoint: https://graph.example.com/debug_token
            """)
        #expect(list[0].tokenInfoEndpoint == "http://127.0.0.1:9000/tokeninfo" && list[0].nativeClientIDs == ["ios.apps", "android.apps"])
        #expect(list[1].tokenInfoEndpoint == "https://graph.facebook.com/debug_token" && list[1].nativeClientIDs == ["2002", "3003"])
        #expect(list[2].tokenInfoEndpoint == "https://graph.example.com/debug_token" && list[2].nativeClientIDs.isEmpty)
    }

    @Test func anEmptyOrMissingListHasNoProviders() throws {
        #expect(try ConfigReader.parseFile(yaml: "site_name: Example\n").providers.isEmpty)
        #expect(try ConfigReader.parseFile(yaml: "social:\n  providers: []\n").providers.isEmpty)
        #expect(try ConfigReader.parseFile(yaml: "social:\n  providers:\n").providers.isEmpty)
    }

    private static let base = "  client_id: a\n  client_secret: b"

    @Test(arguments: [
        ("github", "social.providers: expected a list"),
        ("- github", "social.providers[1]: expected a mapping"),
        ("- preset: github\n  client_id: a", "social.providers[1].id: missing"),
        ("- id: GitHub\n\(base)", "social.providers[1].id: must be 1 to 32 of a-z"),
        ("- id: \(String(repeating: "a", count: 33))\n  preset: oidc", "social.providers[1].id: must be 1 to 32"),
        ("- id: email\n  preset: oidc", "social.providers[1].id: must be 1 to 32 of a-z, 0-9, _ and -, and not email, link or pick"),
        ("- id: link\n  preset: github", "social.providers[1].id:"),
        ("- id: pick\n  preset: github", "social.providers[1].id:"),
        ("- id: github\n\(base)\n  colour: red", "social.providers[1]: unknown option colour"),
        ("- id: corp\n\(base)", "social.providers.corp.preset: missing"),
        ("- id: corp\n  preset: gitlab\n\(base)", "social.providers.corp.preset: must be oidc | google | github | facebook | twitter"),
        ("- id: github\n  client_secret: b", "social.providers.github.client_id: missing"),
        ("- id: github\n  client_id: a", "social.providers.github.client_secret: missing"),
        ("- id: github\n\(base)\n  client_secret_file: /x", "social.providers.github.client_secret_file: give client_secret or"),
        ("- id: github\n  client_id: a\n  client_secret_file: /nonexistent/secret", "social.providers.github.client_secret_file: cannot read"),
        ("- id: corp\n  preset: oidc\n\(base)", "social.providers.corp.issuer: missing"),
        ("- id: corp\n  preset: oidc\n\(base)\n  issuer: http://sso.example.com", "social.providers.corp.issuer: must be an https URL"),
        ("- id: github\n\(base)\n  issuer: https://github.com", "social.providers.github.issuer: only for the oidc and google presets"),
        ("- id: google\n\(base)\n  scopes: email profile", "social.providers.google.scopes: must include openid"),
        ("- id: github\n\(base)\n  scopes: \"\"", "social.providers.github.scopes: is empty"),
        ("- id: github\n\(base)\n  scopes: { a: b }", "social.providers.github.scopes: expected a string or a list"),
        ("- id: github\n\(base)\n  scopes: ['a\"b']", "social.providers.github.scopes: \"a\"b\" is not a scope name"),
        ("- id: github\n\(base)\n  token_endpoint: http://example.com/token", "social.providers.github.token_endpoint: must be an https URL"),
        ("- id: github\n\(base)\n  authorization_endpoint: /authorize", "social.providers.github.authorization_endpoint: must be"),
        ("- id: facebook\n\(base)\n  emails_endpoint: https://x.example", "social.providers.facebook.emails_endpoint: only for the github"),
        ("- id: github\n\(base)\n  token_auth: jwt", "social.providers.github.token_auth: must be basic or post"),
        ("- id: github\n\(base)\n  name: [a, b]", "social.providers.github.name: expected a single value"),
        ("- id: github\n  client_id: \"a\\nb\"\n  client_secret: b", "social.providers.github.client_id: must be one line"),
        ("- id: github\n\(base)\n- id: github\n\(base)", "social.providers.github: declared twice"),
        ("- id: github\n\(base)\n  tokeninfo_endpoint: https://x.example", "social.providers.github.tokeninfo_endpoint: only for the google and facebook"),
        ("- id: corp\n  preset: oidc\n\(base)\n  issuer: https://sso.example.com\n  native_client_ids: a",
         "social.providers.corp.native_client_ids: only for the google and facebook presets"),
        ("- id: google\n\(base)\n  tokeninfo_endpoint: http://example.com/tokeninfo", "social.providers.google.tokeninfo_endpoint: must be an https URL"),
        ("- id: facebook\n\(base)\n  tokeninfo_endpoint: [a]", "social.providers.facebook.tokeninfo_endpoint: expected a single value"),
        ("- id: facebook\n\(base)\n  native_client_ids: \" , \"", "social.providers.facebook.native_client_ids: is empty"),
        ("- id: facebook\n\(base)\n  native_client_ids: []", "social.providers.facebook.native_client_ids: is empty"),
        ("- id: google\n\(base)\n  native_client_ids: { a: b }", "social.providers.google.native_client_ids: expected a string or a list"),
        ("- id: google\n\(base)\n  native_client_ids: [[a]]", "social.providers.google.native_client_ids: expected a list of client ids"),
        ("- id: google\n\(base)\n  native_client_ids: ['ios apps']", "social.providers.google.native_client_ids: \"ios apps\" is not a client id"),
        ("- id: google\n\(base)\n  native_access_tokens: true", "social.providers.google.native_access_tokens: only for the twitter preset"),
        ("- id: x\n\(base)\n  native_access_tokens: sometimes", "social.providers.x.native_access_tokens: must be true or false"),
    ])
    func badProvidersAreRefusedNamingTheProviderAndTheOption(entries: String, expected: String) throws {
        let error = #expect(throws: ConfigError.self) { try providers(entries) }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test func renderingShowsEveryProviderWithSecretsHidden() throws {
        var corp = ProviderConfiguration(id: "corp", kind: .oidc, clientID: "abc", clientSecret: "very-secret")
        corp.issuer = "https://sso.example.com"
        var config = AppConfiguration()
        config.social.providers = [corp, ProviderConfiguration(id: "github", kind: .github, clientID: "gh", clientSecret: "gh-secret")]
        let text = ConfigReader.render(config)
        #expect(!text.contains("very-secret") && !text.contains("gh-secret"))
        #expect(text.contains("""
            social.providers:
              - id: "corp"
                preset: "oidc"
                name: "corp"
                client_id: "abc"
                client_secret: "(set)"
                issuer: "https://sso.example.com"
                scopes: "openid email profile"
                token_auth: "basic"
              - id: "github"
            """))
        #expect(text.contains("    emails_endpoint: \"https://api.github.com/user/emails\"\n    token_auth: \"post\"\n"))
        // Printed back, the list reads as the same providers but for the secrets.
        let read = try ConfigReader.parseFile(yaml: text).providers
        #expect(read.map(\.id) == ["corp", "github"] && read.allSatisfy { $0.clientSecret == "(set)" })
        #expect(read[1] == ProviderConfiguration(id: "github", kind: .github, clientID: "gh", clientSecret: "(set)"))
    }

    @Test func renderingShowsTheNativeTokenOptions() throws {
        var google = ProviderConfiguration(id: "google", kind: .google, clientID: "web.apps", clientSecret: "s")
        google.nativeClientIDs = ["ios.apps", "android.apps"]
        var facebook = ProviderConfiguration(id: "facebook", kind: .facebook, clientID: "1001", clientSecret: "s")
        facebook.tokenInfoEndpoint = "http://127.0.0.1:9000/debug_token"
        var config = AppConfiguration()
        config.social.providers = [google, facebook, ProviderConfiguration(id: "github", kind: .github, clientID: "gh", clientSecret: "s")]
        let text = ConfigReader.render(config)
        #expect(text.contains("""
                tokeninfo_endpoint: "https://oauth2.googleapis.com/tokeninfo"
                token_auth: "basic"
                native_client_ids: "ios.apps, android.apps"
              - id: "facebook"
            """))
        #expect(text.contains("    tokeninfo_endpoint: \"http://127.0.0.1:9000/debug_token\"\n    token_auth: \"post\"\n  - id: \"github\""))
        #expect(text.components(separatedBy: "tokeninfo_endpoint").count == 3 && text.components(separatedBy: "native_client_ids").count == 2)
        // Printed back, the options read the same.
        let read = try ConfigReader.parseFile(yaml: text).providers
        #expect(read[0].nativeClientIDs == google.nativeClientIDs && read[0].tokenInfoEndpoint == google.tokenInfoEndpoint)
        #expect(read[1].tokenInfoEndpoint == facebook.tokenInfoEndpoint && read[1].nativeClientIDs.isEmpty)
    }

    @Test func xsBareAccessTokensAreOffUnlessSwitchedOn() throws {
        let entries = "- id: x\n\(Self.base)\n- id: twitter\n\(Self.base)\n  native_access_tokens: true"
        let read = try providers(entries)
        #expect(read.map(\.nativeAccessTokens) == [false, true])
        var config = AppConfiguration()
        config.social.providers = read
        let text = ConfigReader.render(config)
        #expect(text.components(separatedBy: "native_access_tokens: false").count == 2 && text.contains("native_access_tokens: true"))
        #expect(try ConfigReader.parseFile(yaml: text).providers.map(\.nativeAccessTokens) == [false, true], "printed back, read the same")
    }

    @Test func withoutProvidersNothingIsPrinted() {
        #expect(SocialProvidersConfig.render([]).isEmpty)
    }
}
