// BackupTests.swift: the online backup (`frontdoor backup`), an SQLite-only feature: the copy is opened with GRDB to
// check it is a complete, self-contained SQLite file (moved here from AdministrationTests when that went behind the seam).
import Foundation
import GRDB
import Testing
@testable import AccountCore

struct BackupTests {
    @Test func backupWritesAPrivateCopyWithTheSameRowsAndRefusesAnExistingFile() throws {
        let fixture = try TestFixture(backend: .sqlite)   // backup copies SQLite files
        try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("frontdoor-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("copy.sqlite").path

        let size = try fixture.database.backup(to: path)
        #expect(size > 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.int64Value == size)
        let copy = try DatabaseQueue(path: path)
        #expect(try copy.read { db in try String.fetchAll(db, sql: "SELECT address FROM emailAddress ORDER BY id") } == ["ann@example.com", "bob@example.com"])
        #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") } == 2)
        try copy.close()

        #expect(throws: BackupError.exists(path)) { try fixture.database.backup(to: path) }
        try fixture.signUp("cat@example.com")
        try fixture.database.backup(to: path, force: true)
        let replaced = try DatabaseQueue(path: path)
        #expect(try replaced.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account") } == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["copy.sqlite"], "no temporary file is left")
    }
}
