// UserAgentSummaryTests.swift: real User-Agent headers summarised as "Browser N on System".
import AccountRules
import Testing
@testable import WebFront

struct UserAgentSummaryTests {
    @Test(arguments: [
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Chrome 120 on Linux"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox 121 on Windows"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
         "Safari 17 on macOS"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
         "Safari 17 on iOS"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/119.0.6045.169 Mobile/15E148 Safari/604.1",
         "Chrome 119 on iOS"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.43 Mobile Safari/537.36",
         "Chrome 120 on Android"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.61",
         "Edge 120 on Windows"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0",
         "Opera 105 on Windows"),
        ("Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
         "Samsung Internet 23 on Android"),
        ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Chrome 120 on ChromeOS"),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.28 Safari/537.36",
         "Headless Chrome 120 on Linux"),
        ("curl/8.5.0", "curl 8"),
        ("python-requests/2.31.0", "Python requests 2"),
        ("Mozilla/5.0 (X11; Linux x86_64)", "A browser on Linux"),
        ("", "Unknown browser"),
        ("SomethingElse/1.0", "Unknown browser"),
    ])
    func summaries(agent: String, expected: String) {
        #expect(UserAgentSummary(agent).text(in: .english) == expected)
    }

    @Test func aTokenInsideAnotherWordIsNotTaken() {
        #expect(UserAgentSummary("NotChrome/99").browser == nil)
        #expect(UserAgentSummary("Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/").browser == "Firefox")
    }

    @Test func theWordingComesFromTheCatalog() {
        let catalog = MessageCatalog.english.merging(["session_browser_on_system": "{browser} ({system})"])
        #expect(UserAgentSummary(browser: "Chrome 120", system: "Linux").text(in: catalog) == "Chrome 120 (Linux)")
    }
}
