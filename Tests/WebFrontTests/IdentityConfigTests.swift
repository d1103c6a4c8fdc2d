// IdentityConfigTests.swift: `identity.username` and a declared profile field of the same name cannot both be on.
import Foundation
import Testing
@testable import WebFront

struct IdentityConfigTests {
    func read(_ yaml: String) throws -> AppConfiguration {
        let folder = NSTemporaryDirectory() + "frontdoor-identity-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try yaml.write(toFile: folder + "/frontdoor.yml", atomically: true, encoding: .utf8)
        return try ConfigReader.read(file: folder + "/frontdoor.yml", environment: [:])
    }

    @Test func aDeclaredUsernameFieldIsRefusedOnlyWhenPeopleChooseTheirUsername() throws {
        let field = "profile:\n  fields:\n    - name: username\n      label: Handle\n"
        #expect(try read(field).profileFields.map(\.name) == ["username"], "off: the operator's field keeps the name")
        #expect(throws: ConfigError.self) { try read(field + "identity:\n  username: optional\n") }
        #expect(try read("identity:\n  username: required\n").identity.username == .required)
    }
}
