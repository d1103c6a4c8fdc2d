// QRCodeSVG.swift: a QR code as inline SVG, made by libqrencode (Debian's libqrencode4): the one-time-code enrolment's
// otpauth:// URI, for the person's authenticator app to scan.
//
// Options: none; error correction M (15 % of the code may be lost), the smallest version that holds the text, byte
// mode (case kept), a quiet zone of 4 modules as the QR standard asks. The drawing is one <path> of horizontal runs of
// dark modules over a white square, with presentation attributes only (no style attribute, no script): the page's
// Content-Security-Policy is unchanged, and the code stays black on white in the dark theme, as scanners need.
import CQREncode

/// Draws QR codes.
enum QRCodeSVG {
    /// Modules of white around the code.
    static let quietZone = 4

    /// The dark modules of `text`'s QR code, row by row (true: dark), or nil when libqrencode refuses it (too long).
    static func modules(_ text: String) -> [[Bool]]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        // Bit 0 of each byte is the module's colour; the other bits say what kind of module it is.
        return (0..<width).map { y in (0..<width).map { x in data[y * width + x] & 1 == 1 } }
    }

    /// `text` as an `<svg>` element, `label` its accessible name (escaped here), `pixelsPerModule` its drawn size.
    static func svg(_ text: String, label: String, pixelsPerModule: Int = 4) -> String? {
        guard let rows = modules(text) else { return nil }
        let size = rows.count + 2 * quietZone
        var path = ""
        for (y, row) in rows.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else { x += 1; continue }
                let start = x
                while x < row.count && row[x] { x += 1 }
                path += "M\(start + quietZone) \(y + quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        let pixels = size * pixelsPerModule
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr-code\" viewBox=\"0 0 \(size) \(size)\" width=\"\(pixels)\" height=\"\(pixels)\""
            + " role=\"img\" aria-label=\"\(escaped(label))\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(size)\" height=\"\(size)\" fill=\"#ffffff\"/><path fill=\"#000000\" d=\"\(path)\"/></svg>"
    }

    /// `text` safe inside a double-quoted attribute.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
