// ExplicitColumnsTests.swift: no statement in Sources reads or returns whole rows (`SELECT *`, `SELECT t.*`,
// `RETURNING *`). On PostgreSQL a prepared statement's result columns are fixed when it is prepared: a whole-row
// statement kept on a pooled connection fails ("cached plan must not change result type") once a migration adds a
// column under a running host, and on both backends a row decoder would silently take columns it never named.
import Foundation
import Testing

@Suite struct ExplicitColumnsTests {
    /// Every `.swift` file under Sources.
    private static func sourceFiles() throws -> [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test func noStatementInSourcesReadsOrReturnsWholeRows() throws {
        let wholeRow = try Regex(#"(?i)\b(SELECT\s+(DISTINCT\s+)?([A-Za-z_][A-Za-z0-9_]*\.)?\*|RETURNING\s+\*)"#)
        let files = try Self.sourceFiles()
        #expect(files.count > 100, "the walk found the sources")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(wholeRow) {
                found.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "name the columns: \(found.joined(separator: "\n"))")
    }
}
