import Foundation
import Testing
@testable import WebFront

struct ConfigPathsTests {
    @Test(arguments: [
        ("var/frontdoor.sqlite", "/srv/frontdoor", "/srv/frontdoor/var/frontdoor.sqlite"),
        ("../var/frontdoor.sqlite", "/srv/frontdoor/config", "/srv/frontdoor/var/frontdoor.sqlite"),
        ("./templates/", "/srv/frontdoor", "/srv/frontdoor/templates"),
        ("/var/lib/frontdoor/outbox", "/etc/frontdoor", "/var/lib/frontdoor/outbox"),
        ("/var/lib/../lib/frontdoor//x", "/etc", "/var/lib/frontdoor/x"),
        ("../../../../x", "/a/b", "/x"),
        ("", "/etc/frontdoor", ""),
    ])
    func aPathIsMadeAbsoluteAgainstAFolder(path: String, folder: String, expected: String) {
        #expect(ConfigPaths.resolved(path, against: folder) == expected)
    }

    @Test func theFolderOfAConfigFileIsAbsolute() {
        #expect(ConfigPaths.folder(of: "config/frontdoor.dev.yml", currentDirectory: "/home/me/frontdoor") == "/home/me/frontdoor/config")
        #expect(ConfigPaths.folder(of: "/etc/frontdoor/frontdoor.yml", currentDirectory: "/tmp") == "/etc/frontdoor")
        #expect(ConfigPaths.folder(of: "frontdoor.yml", currentDirectory: "/") == "/")
    }

    /// A config file in a folder of its own, read from another current directory.
    private func readConfig(_ yaml: String, environment: [String: String] = [:]) throws -> (AppConfiguration, folder: String) {
        let folder = NSTemporaryDirectory() + "frontdoor-paths-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/secrets", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "s3cret\n".write(toFile: folder + "/secrets/github", atomically: true, encoding: .utf8)
        try yaml.write(toFile: folder + "/frontdoor.yml", atomically: true, encoding: .utf8)
        return (try ConfigReader.read(file: folder + "/frontdoor.yml", environment: environment, currentDirectory: "/elsewhere"), folder)
    }

    @Test func relativePathsInTheFileAreInItsFolderOthersInTheCurrentDirectory() throws {
        let (config, folder) = try readConfig("""
            database:
              path: "data/frontdoor.sqlite"
            templates:
              path: "../shared/templates"
            fastcgi:
              socket: "run/frontdoor.sock"
            password:
              blocklist_file: "./blocklist.txt"
            mail:
              outbox: "/var/spool/frontdoor"
            """, environment: ["FRONTDOOR_FASTCGI_SOCKET": "from-the-shell.sock"])
        let parent = String(folder[..<folder.lastIndex(of: "/")!])
        #expect(config.database.path == folder + "/data/frontdoor.sqlite")
        #expect(config.templates.path == parent + "/shared/templates")
        #expect(config.password.blocklistFile == folder + "/blocklist.txt")
        #expect(config.mail.outbox == "/var/spool/frontdoor", "absolute stays as written")
        #expect(config.fastcgi.socket == "/elsewhere/from-the-shell.sock", "the environment's value: the current directory")
        #expect(config.social.tokenKeyFile == "/elsewhere/var/social-tokens.key", "a default: the current directory")
        #expect(ConfigReader.render(config).contains("  path: \"\(folder)/data/frontdoor.sqlite\"\n"), "config check prints it resolved")
    }

    @Test func emptyPathsStayEmptyAndAClientSecretFileIsReadFromTheFilesFolder() throws {
        let (config, _) = try readConfig("""
            fastcgi:
              socket: ""
            social:
              providers:
                - id: github
                  client_id: abc
                  client_secret_file: secrets/github
            """)
        #expect(config.fastcgi.socket == "" && config.password.blocklistFile == "")
        #expect(config.social.providers.first?.clientSecret == "s3cret")
    }
}
