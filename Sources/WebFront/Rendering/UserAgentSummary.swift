// UserAgentSummary.swift: "Chrome 120 on Linux" from a User-Agent header, for the sessions page.
//
// Options: none. Recognises the common browsers (by the token that names them, checked before the tokens they
// imitate: Edge and Opera say "Chrome", Chrome says "Safari") and systems; anything else is left out rather than
// guessed. Browser and system names are proper names; the sentence around them comes from the catalog
// (`session_browser_on_system`, `session_unknown_browser_on_system`, `session_unknown_browser`).
import AccountRules

/// The browser (name and major version) and the operating system a User-Agent names, each when recognised.
struct UserAgentSummary: Sendable, Equatable {
    /// "Chrome 120", "Firefox", nil when not recognised.
    var browser: String?
    /// "Linux", "macOS", "iOS", nil when not recognised.
    var system: String?

    init(browser: String?, system: String?) {
        self.browser = browser
        self.system = system
    }

    init(_ userAgent: String) {
        let agent = userAgent.prefix(512)
        browser = Self.browsers.lazy.compactMap { name, token in Self.version(after: token, in: agent).map { (name, $0) } }
            .first.map { name, version in version.isEmpty ? name : "\(name) \(version)" }
        if browser == nil, agent.contains("Safari/") {
            browser = Self.version(after: "Version/", in: agent).map { $0.isEmpty ? "Safari" : "Safari \($0)" } ?? "Safari"
        }
        system = Self.systems.first { _, tokens in tokens.contains { agent.contains($0) } }?.name
    }

    /// What names a native app's device: the summary when the browser is recognised, else the User-Agent as sent (an
    /// app puts its own name there) cut to `limit` characters, else (nothing sent) the summary's wording.
    static func name(of userAgent: String, limit: Int, catalog: MessageCatalog) -> String {
        let summary = UserAgentSummary(userAgent)
        let name = summary.browser == nil ? String(userAgent.prefix(limit)) : summary.text(in: catalog)
        return name.isEmpty ? summary.text(in: catalog) : name
    }

    /// The summary as people read it, worded by `catalog`.
    func text(in catalog: MessageCatalog) -> String {
        switch (browser, system) {
        case let (browser?, system?): catalog.text("session_browser_on_system", ["browser": browser, "system": system])
        case let (browser?, nil): browser
        case let (nil, system?): catalog.text("session_unknown_browser_on_system", ["system": system])
        case (nil, nil): catalog.text("session_unknown_browser")
        }
    }

    /// Browsers in the order they must be checked, with the token that precedes their version.
    private static let browsers: [(name: String, token: String)] = [
        ("Edge", "Edg/"), ("Edge", "EdgA/"), ("Edge", "EdgiOS/"), ("Edge", "Edge/"),
        ("Opera", "OPR/"), ("Opera", "OPT/"), ("Vivaldi", "Vivaldi/"), ("Samsung Internet", "SamsungBrowser/"),
        ("Yandex Browser", "YaBrowser/"),
        ("Firefox", "Firefox/"), ("Firefox", "FxiOS/"),
        ("Chrome", "CriOS/"), ("Chromium", "Chromium/"), ("Headless Chrome", "HeadlessChrome/"), ("Chrome", "Chrome/"),
        ("Opera", "Opera/"), ("Internet Explorer", "MSIE "), ("curl", "curl/"), ("Wget", "Wget/"),
        ("Python requests", "python-requests/"),
    ]

    /// Systems in the order they must be checked (Android says Linux; iOS says "like Mac OS X").
    private static let systems: [(name: String, tokens: [String])] = [
        ("Windows", ["Windows NT", "Windows Phone", "Win64", "Windows"]),
        ("Android", ["Android"]), ("iOS", ["iPhone", "iPad", "iPod"]), ("ChromeOS", ["CrOS"]),
        ("macOS", ["Macintosh", "Mac OS X"]), ("Linux", ["Linux", "X11"]),
        ("FreeBSD", ["FreeBSD"]), ("OpenBSD", ["OpenBSD"]),
    ]

    /// The major version after `token` ("" when the token has no number after it), or nil when `token` is absent.
    /// Only a token at the start or after a space, `(` or `;` counts, so "Chrome/" does not match inside "HeadlessChrome/".
    private static func version(after token: String, in agent: Substring) -> String? {
        var rest = agent[...]
        while let range = rest.range(of: token) {
            let before = range.lowerBound == agent.startIndex ? nil : agent[agent.index(before: range.lowerBound)]
            if before == nil || before == " " || before == "(" || before == ";" {
                return String(agent[range.upperBound...].prefix { $0.isASCII && $0.isNumber }.prefix(6))
            }
            rest = agent[range.upperBound...]
        }
        return nil
    }
}
