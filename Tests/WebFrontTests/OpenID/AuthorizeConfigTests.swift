// AuthorizeConfigTests.swift: reading, checking and printing section `oidc` and its file-only list `oidc.clients`.
import AccountCore
import Crypto
import Foundation
import Testing
@testable import WebFront

@Suite struct AuthorizeConfigTests {
    /// The clients of a file whose `oidc.clients` list is `entries` (indented under it), secret files in `folder`.
    private func clients(_ entries: String, folder: String? = nil) throws -> [OpenIDClient] {
        try ConfigReader.parseFile(yaml: "oidc:\n  clients:\n" + entries.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }.joined(separator: "\n") + "\n", folder: folder).clients
    }

    /// The one-line error reading `entries` gives.
    private func problem(_ entries: String, folder: String? = nil) -> String {
        do { _ = try clients(entries, folder: folder); return "no error" } catch { return "\(error)" }
    }

    private func secretFolder(_ secret: String = "  s3cret-s3cret-s3cret\n") throws -> String {
        let folder = NSTemporaryDirectory() + "frontdoor-oidc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try secret.write(toFile: folder + "/grafana.secret", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func aConfidentialAndAPublicClientAreRead() throws {
        let folder = try secretFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try clients("""
            - id: grafana
              name: Grafana
              secret_file: grafana.secret
              redirect_uris: [https://grafana.example.com/login/generic_oauth]
              allow: group:admins
              second_factor: required
            - id: com.example.app
              public: true
              redirect_uris: "com.example.app:/callback http://127.0.0.1:8123/cb"
              scopes: openid email
              first_party: true
              subject: pairwise
              backchannel_logout_uri: https://app.example.com/logout
              api_sign_in: yes
            """, folder: folder)
        #expect(list.count == 2)
        let grafana = list[0], app = list[1]
        #expect(grafana.name == "Grafana" && !grafana.isPublic && grafana.source == .configuration)
        #expect(grafana.secretDigests == [Data(SHA256.hash(data: Data("s3cret-s3cret-s3cret".utf8)))], "read, trimmed, digested")
        #expect(grafana.acceptsSecret("s3cret-s3cret-s3cret") && !grafana.acceptsSecret("s3cret"))
        #expect(grafana.scopes == ["openid", "profile", "email", "groups"], "the default")
        #expect(grafana.requiresSecondFactor && grafana.allow == "group:admins" && !grafana.firstParty && grafana.subjectType == .public)
        #expect(app.name == "com.example.app" && app.isPublic && app.secretDigests.isEmpty)
        #expect(app.redirectURIs == ["com.example.app:/callback", "http://127.0.0.1:8123/cb"] && app.scopes == ["openid", "email"])
        #expect(app.firstParty && app.subjectType == .pairwise && app.apiSignIn && app.backchannelLogoutURI == "https://app.example.com/logout")
    }

    @Test func everyMistakeIsOneLineNamingTheClientAndOption() throws {
        let folder = try secretFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let uri = "redirect_uris: [https://a.example/cb]"
        let cases: [(String, String)] = [
            ("- name: x\n  public: true\n  \(uri)", "oidc.clients[1].id: missing"),
            ("- id: \"a b\"\n  public: true\n  \(uri)", "oidc.clients[1].id: must be 1 to 64"),
            ("- id: a\n  \(uri)", "oidc.clients.a.secret_file: missing"),
            ("- id: a\n  public: true\n  secret_file: grafana.secret\n  \(uri)", "oidc.clients.a.secret_file: a public client has no secret"),
            ("- id: a\n  secret_file: nothing-here\n  \(uri)", "oidc.clients.a.secret_file: cannot read"),
            ("- id: a\n  public: true", "oidc.clients.a.redirect_uris: missing"),
            ("- id: a\n  public: true\n  redirect_uris: [http://app.example/cb]", "oidc.clients.a.redirect_uris: \"http://app.example/cb\" must be"),
            ("- id: a\n  public: true\n  redirect_uris: [https://a.example/cb#x]", "oidc.clients.a.redirect_uris:"),
            ("- id: a\n  secret_file: grafana.secret\n  redirect_uris: [com.example.app:/cb]", "oidc.clients.a.redirect_uris:"),
            ("- id: a\n  public: true\n  redirect_uris: [myapp:/cb]", "oidc.clients.a.redirect_uris:"),
            ("- id: a\n  public: true\n  \(uri)\n  scopes: openid offline_access", "oidc.clients.a.scopes: \"offline_access\" is not offered"),
            ("- id: a\n  public: true\n  \(uri)\n  scopes: email", "oidc.clients.a.scopes: must include openid"),
            ("- id: a\n  public: true\n  \(uri)\n  allow: grp:admins", "oidc.clients.a.allow: \"grp:admins\""),
            ("- id: a\n  public: true\n  \(uri)\n  second_factor: always", "oidc.clients.a.second_factor: must be optional or required"),
            ("- id: a\n  public: true\n  \(uri)\n  subject: secret", "oidc.clients.a.subject: must be public or pairwise"),
            ("- id: a\n  public: maybe\n  \(uri)", "oidc.clients.a.public: must be true or false"),
            ("- id: a\n  public: true\n  \(uri)\n  backchannel_logout_uri: http://app.example/bc", "oidc.clients.a.backchannel_logout_uri:"),
            ("- id: a\n  public: true\n  \(uri)\n  colour: red", "oidc.clients[1]: unknown option colour"),
            ("- id: a\n  public: true\n  \(uri)\n- id: a\n  public: true\n  \(uri)", "oidc.clients.a: declared twice"),
        ]
        for (entries, expected) in cases {
            let message = problem(entries, folder: folder)
            #expect(message.hasPrefix(expected), "\(entries) → \(message)")
            #expect(!message.contains("\n"), "one line: \(message)")
        }
        let short = try secretFolder("short\n")
        defer { try? FileManager.default.removeItem(atPath: short) }
        #expect(problem("- id: a\n  secret_file: grafana.secret\n  \(uri)", folder: short).contains("at least 16 characters"))
    }

    @Test func theSectionsKeysHaveRangesAndDefaults() throws {
        let defaults = try ConfigReader.read(file: nil, environment: [:])
        #expect(defaults.openID.enabled && defaults.openID.codeLifetime == 60 && defaults.openID.keyGrace == 86400)
        #expect(defaults.openIDIssuer == "http://127.0.0.1:8080/account")
        let set = try ConfigReader.read(file: nil, environment: ["FRONTDOOR_OIDC_ENABLED": "false", "FRONTDOOR_OIDC_CODE_LIFETIME": "2m"])
        #expect(!set.openID.enabled && set.openID.codeLifetime == 120)
        for (key, value) in [("CODE_LIFETIME", "1h"), ("DEVICE_POLL_INTERVAL", "0"), ("KEY_GRACE", "10m")] {
            #expect(throws: ConfigError.self, "\(key)=\(value)") { try ConfigReader.read(file: nil, environment: ["FRONTDOOR_OIDC_\(key)": value]) }
        }
    }

    @Test func configCheckPrintsClientsWithoutTheirSecretAndTheReferenceListsTheKeys() throws {
        let folder = try secretFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = AppConfiguration()
        configuration.openID.clients = try clients("- id: grafana\n  secret_file: grafana.secret\n  redirect_uris: [https://g.example/cb]", folder: folder)
        let text = ConfigReader.render(configuration)
        #expect(text.contains("oidc.clients:\n  - id: \"grafana\"") && text.contains("redirect_uris: [\"https://g.example/cb\"]"))
        #expect(!text.contains("s3cret"))
        let reference = ConfigReference.markdown()
        #expect(reference.contains("| `oidc.code_lifetime` | duration | `1m` |") && reference.contains("| `oidc.clients` | file only |"))
    }
}
