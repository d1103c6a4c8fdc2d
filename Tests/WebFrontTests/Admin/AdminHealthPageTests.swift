// AdminHealthPageTests.swift: the admin health page: its figures match what was done (sign-ins in their hour, a locked
// account, live sessions), its charts are accessible SVG without style attributes, one bar per hour, heights in
// proportion; it speaks French and German; BarChartSVG on its own (no data, all zero, one big value, escaping).
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminHealthPageTests {
    /// Signs `email` in from a new browser (`password` wrong: a failed sign-in).
    func signIn(_ site: AdminSite, _ email: String, password: String = "correct horse") {
        let browser = TestBrowser(site.test.app)
        browser.post("/account/sign_in", ["email": email, "password": password])
    }

    /// The number shown for the figure `key`.
    func figure(_ page: String, _ key: String) -> Int? {
        let pattern = try! Regex("data-figure=\"\(key)\"><dt>[^<]*</dt><dd>([0-9]+)</dd>")
        return page.firstMatch(of: pattern).flatMap { Int($0.output[1].substring ?? "") }
    }

    /// The table row of the hour starting at `iso`: (sign-ins, failed).
    func hourRow(_ page: String, _ iso: String) -> (Int, Int)? {
        let pattern = try! Regex("<time datetime=\"\(iso)\">[^<]*</time></td><td[^>]*>([0-9]+)</td><td[^>]*>([0-9]+)</td>")
        guard let match = page.firstMatch(of: pattern) else { return nil }
        return (Int(match.output[1].substring ?? "") ?? -1, Int(match.output[2].substring ?? "") ?? -1)
    }

    /// The page's `<svg>` elements.
    func svgs(_ page: String) -> [String] { page.matches(of: /<svg[\s\S]*?<\/svg>/).map { String($0.output) } }

    /// The heights of the chart's bars, in order.
    func barHeights(_ svg: String) -> [Double] {
        svg.matches(of: /<rect class="chart-bar" x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)"/).map { Double($0.output.1)! }
    }

    @Test func theFiguresAndHoursMatchWhatWasDone() throws {
        // Given (the fixed clock starts at 2027-01-15 08:00 UTC): at 08:00 one sign-in and one failure; at 10:10 two
        // sign-ins and one failure; a third account, locked (its session ends).
        let site = try AdminSite { $0.session.idleTimeout = 6 * 3600 }
        signIn(site, "ann@example.com")
        signIn(site, "ann@example.com", password: "wrong password")
        site.test.clock.advance(by: 2 * 3600 + 600)
        signIn(site, "ann@example.com")
        signIn(site, "ann@example.com")
        signIn(site, "ann@example.com", password: "wrong password")
        let bob = TestBrowser(site.test.app)
        let form = ["email": "bob@example.com", "password": "correct horse", "password_confirmation": "correct horse"]
        #expect(bob.post("/account/sign_up", form).status == 303)
        try site.test.services.lockout.lock(accountId: 3, client: adminTestCLI)

        // When
        let response = site.admin.get(site.uri("health"))

        // Then
        #expect(response.status == 200)
        let page = response.text
        #expect(figure(page, "accounts") == 3)
        #expect(figure(page, "live_sessions") == 5, "admin, ann, ann's three sign-ins; bob's ended with the lock")
        #expect(figure(page, "locked") == 1)
        #expect(figure(page, "sign_ins") == 3)
        #expect(figure(page, "failed_sign_ins") == 2)
        #expect(figure(page, "mail_waiting") == (try site.test.services.mail.pendingCount()))
        #expect(figure(page, "mail_failed") == 0)
        #expect(hourRow(page, "2027-01-15T08:00:00Z") ?? (0, 0) == (1, 1))
        #expect(hourRow(page, "2027-01-15T09:00:00Z") ?? (9, 9) == (0, 0))
        #expect(hourRow(page, "2027-01-15T10:00:00Z") ?? (0, 0) == (2, 1))
        #expect(hourRow(page, "2027-01-14T11:00:00Z") ?? (9, 9) == (0, 0), "the window's first hour")
        #expect(hourRow(page, "2027-01-14T10:00:00Z") == nil, "25 hours ago: not shown")
        #expect(page.contains("id=\"ready\"") && page.contains("id=\"figures\"") && page.contains("id=\"charts\""))
        #expect(page.contains("<strong>Ready</strong>"))
    }

    @Test func theChartsAreAccessibleImagesWithABarPerHourInProportionAndNoStyleAttribute() throws {
        let site = try AdminSite { $0.session.idleTimeout = 2 * 3600 }
        signIn(site, "ann@example.com")
        site.test.clock.advance(by: 3600)
        signIn(site, "ann@example.com")
        signIn(site, "ann@example.com")
        let page = site.admin.get(site.uri("health")).text

        #expect(!page.contains("style="), "the CSP forbids style attributes")
        #expect(!page.contains("<script"))
        let charts = svgs(page)
        #expect(charts.count == 2)
        for (svg, id) in zip(charts, ["chart-sign-ins", "chart-failed-sign-ins"]) {
            #expect(svg.contains("role=\"img\""))
            #expect(svg.contains("aria-labelledby=\"\(id)-title\""))
            #expect(svg.contains("<title id=\"\(id)-title\">"))
            #expect(svg.contains("viewBox=\"0 0 360 150\"") && svg.contains("width=\"100%\""))
            #expect(barHeights(svg).count == 24, "one bar per hour")
        }
        // 08:00 one sign-in, 09:00 two: half the height, the highest the full height of the plot.
        let heights = barHeights(charts[0])
        #expect(heights[23] == BarChartSVG.plotHeight)
        #expect(heights[22] * 2 == heights[23])
        #expect(heights[..<22].allSatisfy { $0 == 0 })
        #expect(barHeights(charts[1]).allSatisfy { $0 == 0 })
        #expect(charts[0].contains("<desc id=\"chart-sign-ins-desc\">3 in all; at most 2 in one hour.</desc>"))
        #expect(page.contains("<details class=\"health-hours\">"), "the figures as a table too")
    }

    @Test(arguments: ["fr", "de"])
    func thePageSpeaksTheLanguageAskedWithoutMissingWordingOrEnglish(language: String) throws {
        let site = try AdminSite()
        signIn(site, "ann@example.com", password: "wrong password")
        // The admin's own choice of language (sign-up kept the English it was answered in).
        try site.test.services.profile.setLanguage(language, of: site.adminId)
        let response = site.admin.get(site.uri("health"))
        #expect(response.status == 200)
        let page = response.text
        #expect(page.contains("lang=\"\(language)\""))
        #expect(!page.contains("admin_health_"), "a catalog key shown instead of its text")
        #expect(page.contains(language == "fr" ? "Connexions par heure" : "Anmeldungen pro Stunde"))
        // The words look.py's check finds untranslated by (text only: tags and attributes taken out).
        let english: Set = ["the", "your", "you", "and", "with", "this", "that", "please", "sign", "signed", "password", "settings",
                            "address", "account", "accounts", "email", "emails", "back", "continue", "cancel", "send", "save", "change",
                            "something", "went", "wrong", "error", "found", "check", "here", "home", "remember", "forgot", "delete",
                            "allow", "device", "skip", "content", "language", "welcome", "linked", "ready", "hour", "figures", "failed"]
        let text = page.replacing(/<[^>]*>/, with: " ").replacing(/[^\s@]+@[^\s@]+/, with: " ").lowercased()
        let words = Set(text.split { !$0.isLetter }.map(String.init))
        #expect(words.intersection(english).isEmpty, "\(words.intersection(english))")
    }

    // MARK: - BarChartSVG

    func rects(_ svg: String) -> [(x: Double, width: Double, height: Double)] {
        svg.matches(of: /<rect class="chart-bar" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)" height="([0-9.]+)"/).map {
            (Double($0.output.1)!, Double($0.output.2)!, Double($0.output.3)!)
        }
    }

    @Test func aChartWithoutDataHasItsFrameAndNoBar() {
        let svg = BarChartSVG.svg([], id: "c", title: "Nothing")
        #expect(rects(svg).isEmpty)
        #expect(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>"))
        #expect(svg.contains("<title id=\"c-title\">Nothing</title>") && !svg.contains("aria-describedby"))
        #expect(!svg.contains("nan") && !svg.contains("inf"))
    }

    @Test func allZeroBarsKeepTheirSlotsAtHeightZero() {
        let bars = (0..<24).map { BarChartSVG.Bar(value: 0, label: $0 % 6 == 0 ? "\($0):00" : nil, tip: "t") }
        let svg = BarChartSVG.svg(bars, id: "z", title: "Zero")
        let drawn = rects(svg)
        #expect(drawn.count == 24)
        #expect(drawn.allSatisfy { $0.height == 0 && $0.width > 0 })
        #expect(zip(drawn, drawn.dropFirst()).allSatisfy { $0.x < $1.x }, "each in its own slot")
        #expect(svg.matches(of: /<text class="chart-label"/).count == 1 + 4, "0 (no highest value above it), four hours")
        #expect(BarChartSVG.anchor("00:00", at: 2) == "start", "a label at the left edge starts at its tick")
        #expect(svg.contains("text-anchor=\"middle\">6:00</text>"))
        #expect(!svg.contains("nan"))
    }

    @Test func oneBigValueTakesTheFullHeightAndItsLabelFitsInTheDrawing() {
        var bars = (0..<24).map { BarChartSVG.Bar(value: $0 == 5 ? 1_000_000 : 1, label: nil, tip: "t") }
        bars[6].value = -3
        let svg = BarChartSVG.svg(bars, id: "b", title: "Big")
        let drawn = rects(svg)
        #expect(drawn[5].height == BarChartSVG.plotHeight)
        #expect(drawn[0].height < 0.01, "a millionth of the height")
        #expect(drawn[6].height == 0, "below zero is drawn as zero")
        #expect(svg.contains(">1000000</text>") && svg.contains("class=\"chart-grid\""))
        #expect(BarChartSVG.anchor("23:00", at: BarChartSVG.width - 5) == "end", "a last label ends at its tick")
        #expect(drawn.allSatisfy { $0.x >= BarChartSVG.left(for: "1000000") && $0.x + $0.width <= BarChartSVG.width })
    }

    @Test func everyTextIsEscaped() {
        let bars = [BarChartSVG.Bar(value: 1, label: "<b>&", tip: "\"tip\" <i>")]
        let svg = BarChartSVG.svg(bars, id: "e\"x", title: "<script>alert(1)</script>", description: "a & b")
        #expect(!svg.contains("<script") && !svg.contains("<b>") && !svg.contains("<i>"))
        #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(svg.contains("&lt;b&gt;&amp;") && svg.contains("&quot;tip&quot; &lt;i&gt;") && svg.contains("a &amp; b"))
        #expect(svg.contains("aria-labelledby=\"e&quot;x-title\""))
    }

    @Test func numbersAreShortAndLocaleFree() {
        #expect(BarChartSVG.number(120) == "120")
        #expect(BarChartSVG.number(43.333) == "43.33")
        #expect(BarChartSVG.number(7.5) == "7.5")
        #expect(BarChartSVG.number(0.004) == "0")
        #expect(BarChartSVG.number(-2.25) == "-2.25")
    }
}
