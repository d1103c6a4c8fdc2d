// FlashTests.swift: a flash survives its trip through the cookie: every message the pages set is a known one.
import Foundation
import Testing
@testable import WebFront

struct FlashTests {
    @Test func theLanguageSwitchersFlashSurvivesTheCookie() {
        let flash = Flash("language_changed")
        #expect(Flash(cookieValue: flash.cookieValue) == flash)
    }

    /// Each `flash.set(Flash("key"…` travels in the cookie and must be read back (a flash handed to `page(flash:)`
    /// directly, such as sign_in_failed, does not).
    @Test func everyFlashTheSourcesSetIsKnown() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/WebFront")
        let paths = try #require(FileManager.default.subpaths(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
        var keys = Set<String>()
        for path in paths {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            keys.formUnion(text.matches(of: /flash\.set\(Flash\("([a-z_]+)"/).map { String($0.output.1) })
        }
        #expect(keys.isSuperset(of: ["signed_in", "profile_updated", "language_changed"]), "the pattern still finds them")
        for key in keys.sorted() {
            #expect(Flash(cookieValue: key) != nil, "Flash(\"\(key)\") is set but dropped when read back")
        }
    }

    @Test func unknownAndForgedValuesAreDropped() {
        #expect(Flash(cookieValue: "no_such_message") == nil)
        #expect(Flash(cookieValue: "signed_in|evil provider!") == nil)
        #expect(Flash(cookieValue: "signed_in") == Flash("signed_in"))
    }
}
