// QRCodeSVGTests.swift: libqrencode's QR code as inline SVG: a quiet zone of 4 modules, one path, nothing the page's
// Content-Security-Policy would block (no style attribute, no script), the label escaped.
import Testing
@testable import WebFront

struct QRCodeSVGTests {
    let uri = "otpauth://totp/Frontdoor:ann%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Frontdoor&algorithm=SHA1&digits=6&period=30"

    @Test func theCodeIsSquareWithItsFinderPatternsAndAQuietZone() throws {
        let rows = try #require(QRCodeSVG.modules(uri))
        #expect(rows.count >= 21 && (rows.count - 17) % 4 == 0, "a QR version's size: 17 + 4 × version")
        #expect(rows.allSatisfy { $0.count == rows.count })
        // The top-left finder pattern: a dark 7×7 ring, a light ring inside, a dark 3×3 centre.
        #expect((0..<7).allSatisfy { rows[0][$0] && rows[6][$0] && rows[$0][0] && rows[$0][6] })
        #expect((1..<6).allSatisfy { !rows[1][$0] && !rows[5][$0] } && rows[3][3])
        let svg = try #require(QRCodeSVG.svg(uri, label: "QR \"code\" <app>"))
        let size = rows.count + 8
        #expect(svg.contains("viewBox=\"0 0 \(size) \(size)\""))
        #expect(svg.contains("M4 4h7v1h-7z"), "the first run starts after 4 light modules each way")
        #expect(svg.components(separatedBy: "<path").count == 2, "one path")
        #expect(!svg.contains("style") && !svg.contains("<script"))
        #expect(svg.contains("aria-label=\"QR &quot;code&quot; &lt;app&gt;\""))
    }

    @Test func textTooLongForAnyVersionGivesNoCode() {
        #expect(QRCodeSVG.modules(String(repeating: "x", count: 3000)) == nil)
    }
}
