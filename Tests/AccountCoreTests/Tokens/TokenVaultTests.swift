import Foundation
import Testing
@testable import AccountCore

struct TokenVaultTests {
    /// A fresh folder under the temporary directory (not created).
    func temporaryFolder() -> String { NSTemporaryDirectory() + "frontdoor-vault-" + UUID().uuidString }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aSealedValueOpensWithItsKeyAndContextOnly() throws {
        let vault = TokenVault.ephemeral(random: SeededRandomSource(seed: 1))
        let clear = Data(#"{"access_token":"abc"}"#.utf8)
        let sealed = try vault.seal(clear, context: "corp\nuser-1")
        #expect(sealed.count == 12 + clear.count + 16, "nonce ‖ ciphertext ‖ tag")
        #expect(try vault.open(sealed, context: "corp\nuser-1") == clear)

        #expect(throws: TokenVaultError.self) { try vault.open(sealed, context: "corp\nuser-2") }
        #expect(throws: TokenVaultError.self) { try TokenVault.ephemeral(random: SeededRandomSource(seed: 2)).open(sealed, context: "corp\nuser-1") }
        var tampered = sealed
        tampered[14] ^= 1
        #expect(throws: TokenVaultError.self) { try vault.open(tampered, context: "corp\nuser-1") }
        #expect(throws: TokenVaultError.self) { try vault.open(Data([1, 2, 3]), context: "corp\nuser-1") }
    }

    @Test func sealingTwiceGivesTwoDifferentBlobs() throws {
        let vault = TokenVault.ephemeral()
        let first = try vault.seal(Data("same".utf8), context: "x")
        let second = try vault.seal(Data("same".utf8), context: "x")
        #expect(first != second, "a fresh nonce each time")
        #expect(first.prefix(12) != second.prefix(12))
    }

    @Test func theKeyFileIsCreatedOnceWithMode0600AndItsFolder() throws {
        // Given a path in a folder that does not exist yet
        let folder = temporaryFolder() + "/var"
        let path = folder + "/social-tokens.key"
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        // When the vault is loaded twice, with different randomness
        let first = try TokenVault.loadOrCreate(path: path, random: SeededRandomSource(seed: 1))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let second = try TokenVault.loadOrCreate(path: path, random: SeededRandomSource(seed: 2))
        // Then the file holds 32 bytes with mode 0600, the second load kept it, and both vaults share the key
        #expect(bytes.count == 32)
        #expect(try mode(path) == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "never overwritten")
        let sealed = try first.seal(Data("token".utf8), context: "c")
        #expect(try second.open(sealed, context: "c") == Data("token".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["social-tokens.key"], "no temporary file left")
    }

    @Test func aKeyFileOthersCanReadIsRefusedAndLeftAlone() throws {
        let folder = temporaryFolder()
        let path = folder + "/key"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try TokenVault.loadOrCreate(path: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for loose in [0o644, 0o640, 0o604, 0o660] {
            try FileManager.default.setAttributes([.posixPermissions: loose], ofItemAtPath: path)
            let error = #expect(throws: TokenVaultError.self) { try TokenVault.loadOrCreate(path: path) }
            #expect(error?.description.contains("chmod 600") == true, "\(String(describing: error))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        _ = try TokenVault.loadOrCreate(path: path)   // read-only for its owner is fine
    }

    @Test func aKeyFileOfTheWrongSizeIsRefused() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for size in [0, 16, 31, 33, 64] {
            let path = folder + "/key-\(size)"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: size),
                                                   attributes: [.posixPermissions: 0o600]))
            let error = #expect(throws: TokenVaultError.self) { try TokenVault.loadOrCreate(path: path) }
            #expect(error?.description.contains("holds \(size) bytes") == true, "\(String(describing: error))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == size, "left as it was")
        }
    }

    @Test func aFolderInPlaceOfTheKeyFileIsRefused() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/key", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let error = #expect(throws: TokenVaultError.self) { try TokenVault.loadOrCreate(path: folder + "/key") }
        #expect(error?.description.contains("not a regular file") == true, "\(String(describing: error))")
    }

    @Test func processesStartingAtOnceAgreeOnOneKey() async throws {
        // Given many loaders racing for a missing key file
        let folder = temporaryFolder()
        let path = folder + "/key"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sealed = try await withThrowingTaskGroup(of: (TokenVault, Data).self) { group in
            for seed in 1...8 {
                group.addTask {
                    let vault = try TokenVault.loadOrCreate(path: path, random: SeededRandomSource(seed: UInt64(seed)))
                    return (vault, try vault.seal(Data("t\(seed)".utf8), context: "c"))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then every vault opens what every other sealed: there is one key
        let final = try TokenVault.loadOrCreate(path: path)
        for (_, blob) in sealed { _ = try final.open(blob, context: "c") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["key"])
    }
}
