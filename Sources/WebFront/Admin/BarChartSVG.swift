// BarChartSVG.swift: a small bar chart as inline SVG, drawn on the server (the admin health page's sign-ins per hour).
//
// Options: none. No script, no style attribute, no <style> element: the page's Content-Security-Policy
// (`style-src 'self'`) stays as it is. Colours and type come from frontdoor.css through classes (`chart-bar`,
// `chart-axis`, `chart-grid`, `chart-label`), so the chart follows the light or dark theme; geometry is presentation
// attributes (labels are at most 8 units wide per character at the stylesheet's 14 px, a phone's). The drawing scales to its box (viewBox, width 100 %): nothing overflows a phone's width.
// Accessible as one image: `role="img"` named by its <title> and described by its <desc> (aria-labelledby /
// aria-describedby); the page gives the figures as a table too. Every bar has its slot, a zero one too (height 0),
// and a <title> of its own (a pointer's tooltip). Every text is escaped here.
import Foundation

/// Draws bar charts.
enum BarChartSVG {
    /// One bar: its value (below 0 drawn as 0), the axis label under its left edge (nil: none), its tooltip.
    struct Bar: Equatable {
        var value: Int
        var label: String?
        var tip: String
    }

    /// The drawing's size in user units (the viewBox), and the room around the bars.
    static let width = 360.0, height = 150.0
    static let top = 10.0, bottom = 24.0, right = 4.0
    /// The bars' share of their slot.
    static let barShare = 0.7

    /// Where the bars stand: from `left` (after the value labels) to `width - right`, from `top` to `baseline`.
    static var baseline: Double { height - bottom }
    static var plotHeight: Double { baseline - top }

    /// The room left of the bars for the value labels (`text`, the widest).
    static func left(for text: String) -> Double { max(22, Double(text.count) * 8 + 8) }

    /// `bars` as an `<svg>` element. `id` makes its element ids (`<id>-title`, `<id>-desc`): unique in the page.
    /// `title` names it, `description` (optional) says it in words; both escaped here.
    static func svg(_ bars: [Bar], id: String, title: String, description: String? = nil) -> String {
        let highest = bars.map { max(0, $0.value) }.max() ?? 0
        let maximum = String(highest)
        let left = left(for: maximum)
        let slot = bars.isEmpty ? 0 : (width - right - left) / Double(bars.count)
        let ids = [id + "-title"] + (description == nil ? [] : [id + "-desc"])
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 \(number(width)) \(number(height))\""
            + " width=\"100%\" role=\"img\" aria-labelledby=\"\(escaped(ids[0]))\""
            + (description == nil ? "" : " aria-describedby=\"\(escaped(ids[1]))\"") + " focusable=\"false\">"
        out += "<title id=\"\(escaped(ids[0]))\">\(escaped(title))</title>"
        if let description { out += "<desc id=\"\(escaped(ids[1]))\">\(escaped(description))</desc>" }
        // The scale: a line at the highest value, labelled with it (when above 0), and the baseline at 0.
        if highest > 0 {
            out += line("chart-grid", left, top, width - right, top)
            out += text(maximum, x: left - 4, y: top + 5, anchor: "end")
        }
        out += text("0", x: left - 4, y: baseline, anchor: "end")
        for (index, bar) in bars.enumerated() {
            let x = left + Double(index) * slot
            let barHeight = highest == 0 ? 0 : Double(max(0, bar.value)) / Double(highest) * plotHeight
            out += "<rect class=\"chart-bar\" x=\"\(number(x + slot * (1 - barShare) / 2))\" y=\"\(number(baseline - barHeight))\""
                + " width=\"\(number(slot * barShare))\" height=\"\(number(barHeight))\"><title>\(escaped(bar.tip))</title></rect>"
            if let label = bar.label {
                out += line("chart-axis", x, baseline, x, baseline + 4)
                out += text(label, x: x, y: height - 5, anchor: anchor(label, at: x))
            }
        }
        out += line("chart-axis", left, baseline, width - right, baseline)
        return out + "</svg>"
    }

    /// Centred under its tick, unless that would leave the drawing: then starting or ending there.
    static func anchor(_ label: String, at x: Double) -> String {
        let half = Double(label.count) * 4
        return x - half < 0 ? "start" : x + half > width ? "end" : "middle"
    }

    private static func line(_ kind: String, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
        "<line class=\"\(kind)\" x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\"/>"
    }

    private static func text(_ content: String, x: Double, y: Double, anchor: String) -> String {
        "<text class=\"chart-label\" x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"\(anchor)\">\(escaped(content))</text>"
    }

    /// `value` with at most two decimals and no trailing zeros ("12", "43.33"): short attributes, no locale.
    static func number(_ value: Double) -> String {
        guard value >= 0 else { return "-" + number(-value) }
        let hundredths = Int((value * 100).rounded()), part = hundredths % 100
        guard part != 0 else { return String(hundredths / 100) }
        return String(hundredths / 100) + "." + (part % 10 == 0 ? String(part / 10) : String(format: "%02d", part))
    }

    /// `text` safe in an element's content and in a double-quoted attribute.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
