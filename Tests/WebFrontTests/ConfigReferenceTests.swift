import AccountCore
import Foundation
import Testing
@testable import WebFront

/// The key table is the one place a key's name, type and meaning are written, and it reads each default from the one
/// struct that holds it; docs/configuration.md's table is its output.
struct ConfigReferenceTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/configuration.md")

    @Test func theDocumentedTableIsTheKeyTablesOutput() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let section = ConfigReference.section(of: text)
        #expect(section != nil, "docs/configuration.md lacks the marker lines around the config table")
        #expect(section == ConfigReference.markdown(),
                "docs/configuration.md's config table differs from the key table: paste `frontdoor config reference` between the markers")
    }

    @Test func everyKeyIsListedOnceWithATypeAndAMeaning() {
        let names = ConfigKeys.all.map(\.name) + ConfigKeys.fileOnly.map(\.name)
        #expect(Set(names).count == names.count)
        for key in ConfigKeys.all {
            #expect(!key.type.isEmpty && !key.meaning.isEmpty, "\(key.name)")
            #expect(!key.meaning.contains("|") && !key.meaning.contains("\n"), "\(key.name): one Markdown table cell")
        }
        let markdown = ConfigReference.markdown()
        for name in names { #expect(markdown.contains("| `\(name)` |")) }
    }

    @Test func theWebDefaultsOfAccountCoresKeysAreCoreConfigurationsOwn() {
        var core = AppConfiguration().core
        core.languages = CoreConfiguration.default.languages   // offered languages are WebFront's alone
        #expect(core == CoreConfiguration.default)
    }

    @Test func theDefaultColumnReadsTheValueTheCodeStartsWith() {
        let cell = { (name: String) in ConfigKeys.all.first { $0.name == name }.map(ConfigReference.defaultCell) }
        #expect(cell("session.idle_timeout") == "`\(ConfigKeys.formatDuration(SessionPolicy.default.idleTimeout))`")
        #expect(cell("session.idle_timeout") == "`30m`")
        #expect(cell("password.min_length") == "`\(PasswordPolicy.default.length.lowerBound)`")
        #expect(cell("api.residence_lifetime") == "`\(ConfigKeys.formatDuration(CoreConfiguration.default.residenceLifetime))`")
        #expect(cell("fastcgi.socket") == "empty")
        #expect(cell("metrics.host") == "the machine's hostname")
        #expect(cell("session.secure_cookie") == "`auto`")
    }

    @Test func verboseCheckFollowsEachChangedValueWithItsDefault() throws {
        let defaults = try ConfigReader.read(file: nil, environment: [:], currentDirectory: "/srv/here")
        var config = defaults
        config.session.idleTimeout = 900
        config.mail.smtpURL = "smtps://mail.example.com:465"
        let text = ConfigReader.render(config, defaults: defaults)
        #expect(text.contains("  idle_timeout: \"15m\"   # default: 30m\n"))
        #expect(text.contains("  smtp_url: \"smtps://mail.example.com:465\"   # default: empty\n"))
        #expect(text.components(separatedBy: "# default:").count == 3, "only the two changed values are annotated")
        #expect(ConfigReader.render(config) == text.replacingOccurrences(of: "   # default: 30m", with: "")
            .replacingOccurrences(of: "   # default: empty", with: ""))
    }
}
