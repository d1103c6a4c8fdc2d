// FileCredentialsStoreTests.swift: the JSON file store (modes, atomic replacement, keys) and the memory store.
import Foundation
import FrontdoorClient
import Testing

@Suite struct FileCredentialsStoreTests {
    let server = URL(string: "https://example.com/account")!

    func credentials(_ name: String, extra: [String: String] = [:]) -> Credentials {
        Credentials(username: "\(name)@example.com", secret: "secret-\(name)", url: server, extra: extra)
    }

    @Test func keepsDefaultAndKeyedCredentialsAcrossInstances() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/credentials.json"
        let store = FileCredentialsStore(path: path)
        #expect(try store.defaultCredentials() == nil)
        #expect(try store.keys() == [])
        try store.setDefaultCredentials(credentials("ann", extra: ["id": "12"]))
        try store.set(credentials("bob"), forKey: "github")

        let again = FileCredentialsStore(path: path)
        #expect(try again.defaultCredentials() == credentials("ann", extra: ["id": "12"]))
        #expect(try again.credentials(forKey: "github") == credentials("bob"))
        #expect(try again.credentials(forKey: "missing") == nil)
        #expect(try again.keys() == ["default", "github"])

        try again.set(credentials("cid"), forKey: "github")
        #expect(try store.credentials(forKey: "github") == credentials("cid"))
        try again.removeDefaultCredentials()
        try again.remove(forKey: "missing")
        #expect(try store.keys() == ["github"])
    }

    @Test func fileIsOwnerOnlyInAnOwnerOnlyFolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/nested/deeper/credentials.json"
        let store = FileCredentialsStore(path: path)
        try store.setDefaultCredentials(credentials("ann"))
        #expect(try permissions(path) == 0o600)
        #expect(try permissions(folder.path + "/nested/deeper") == 0o700)
        #expect(try permissions(folder.path + "/nested") == 0o700)
        try store.set(credentials("bob"), forKey: "other")
        #expect(try permissions(path) == 0o600)
    }

    @Test func replacesTheFileAtomicallyAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/credentials.json"
        let store = FileCredentialsStore(path: path)
        try store.setDefaultCredentials(credentials("ann"))
        let before = try inode(path)
        try store.set(credentials("bob"), forKey: "second")
        // A new file was renamed over the old one: a reader holding the old one never sees it half written.
        #expect(try inode(path) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["credentials.json"])
        let decoded = try JSONDecoder().decode([String: Credentials].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoded == ["default": credentials("ann"), "second": credentials("bob")])
    }

    @Test func concurrentWritersLoseNothing() async throws {
        let folder = try TemporaryFolder()
        let store = FileCredentialsStore(path: folder.path + "/credentials.json")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { try store.set(credentials("user\(index)"), forKey: "key\(index)") }
            }
            try await group.waitForAll()
        }
        #expect(try store.keys().count == 40)
        #expect(try store.credentials(forKey: "key17") == credentials("user17"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["credentials.json"])
    }

    @Test func removeAllEmptiesTheFileAndWorksWithoutOne() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/credentials.json"
        let store = FileCredentialsStore(path: path)
        try store.removeAll()
        #expect(!FileManager.default.fileExists(atPath: path))
        try store.setDefaultCredentials(credentials("ann"))
        try store.set(credentials("bob"), forKey: "residence:bob@example.com")
        try store.removeAll()
        #expect(try store.keys() == [])
        #expect(try permissions(path) == 0o600)
    }

    @Test func aDamagedFileIsAnErrorNotAnEmptyStore() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/credentials.json"
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        let store = FileCredentialsStore(path: path)
        #expect(throws: FileCredentialsStore.Failure.self) { try store.defaultCredentials() }
        #expect(throws: FileCredentialsStore.Failure.self) { try store.set(credentials("ann"), forKey: "x") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{not json")
    }

    @Test func memoryStoreHasTheSameBehaviour() throws {
        let store = MemoryCredentialsStore()
        try store.setDefaultCredentials(credentials("ann"))
        try store.set(credentials("bob"), forKey: "b")
        #expect(try store.keys() == ["b", "default"])
        try store.remove(forKey: "b")
        #expect(try store.defaultCredentials() == credentials("ann"))
        try store.removeAll()
        #expect(try store.keys() == [])
    }

    private func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func inode(_ path: String) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }
}

/// A folder under the system's temporary folder, removed when the value goes away.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("frontdoor-client-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
