import Foundation
import Testing
@testable import AccountCore

/// The outbox holds live reset, confirmation and invitation links: only the server's user may read them, whatever the
/// umask (the CGI and `make run` layouts have no systemd StateDirectoryMode to narrow it).
struct OutboxTransportTests {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func messagesAre0600InA0700Folder() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-outbox-" + UUID().uuidString + "/mail"
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let previous = umask(0o022)   // the common default, under which a plain write gives 0644 and 0755
        defer { umask(previous) }
        try OutboxTransport(folder: folder).deliver("Subject: reset\r\n\r\nhttps://example.com/reset/t\r\n",
                                                     from: "a@example.com", to: "b@example.com", id: "m1")
        #expect(String(try mode(folder), radix: 8) == "700")
        #expect(String(try mode(folder + "/m1.eml"), radix: 8) == "600")
        #expect(try String(contentsOfFile: folder + "/m1.eml", encoding: .utf8).contains("reset/t"))
        // A second message with the same id replaces the first (a retried delivery), still 0600, and leaves no temporary.
        try OutboxTransport(folder: folder).deliver("again", from: "a@example.com", to: "b@example.com", id: "m1")
        #expect(try String(contentsOfFile: folder + "/m1.eml", encoding: .utf8) == "again")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["m1.eml"])
    }
}
