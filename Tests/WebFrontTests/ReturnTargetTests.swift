import Testing
@testable import WebFront

struct ReturnTargetTests {
    @Test(arguments: ["/account/", "/other/path?x=1", "/a%20b", "/wiki/Page#top"])
    func pathsOnThisSiteAreFollowed(target: String) {
        #expect(ReturnTarget.checked(target, fallback: "/home") == target)
    }

    @Test(arguments: [
        "https://evil.example/", "//evil.example/", "/\\evil.example", "\\\\evil.example", "https:evil.example",
        "%2F%2Fevil.example", "/%2F%2Fevil.example", "/%2Fevil.example", "/%5Cevil.example", "/%252F%252Fevil.example",
        "javascript:alert(1)", "/ok\r\nSet-Cookie: x=1", "evil.example", "", " /account/",
    ])
    func everythingElseFallsBack(target: String) {
        #expect(ReturnTarget.checked(target, fallback: "/home") == "/home")
    }

    @Test func noTargetFallsBack() {
        #expect(ReturnTarget.checked(nil, fallback: "/home") == "/home")
    }

    static let hosts = AllowedHosts(publicURL: "https://login.example.com:8443", patterns: ["app.test", ".partner.test"])

    @Test(arguments: ["https://login.example.com/x", "http://login.example.com:9/", "https://app.test", "HTTP://APP.TEST/a?b#c",
                      "https://partner.test/", "https://wiki.partner.test/page", "https://a.b.partner.test:443/", "/account/"])
    func urlsOnAllowedHostsAreFollowed(target: String) {
        #expect(ReturnTarget.checked(target, fallback: "/home", allowedHosts: Self.hosts) == target)
    }

    @Test(arguments: [
        "https://evil.example/", "https://app.test.evil.example/", "https://notpartner.test/", "https://app.test@evil.example/",
        "https://evil.example@app.test/", "https://evil.example%2F@app.test/", "http://evil.example\\@app.test/",
        "https://app.test:99999/", "https://app.test:/", "https://app test/", "https://[::1/", "https://.partner.test/",
        "ftp://app.test/", "https:app.test", "https:/app.test", "//app.test/", "https://app.test/\t", "https://app.test/é",
    ])
    func urlsOnOtherHostsOrMalformedFallBack(target: String) {
        #expect(ReturnTarget.checked(target, fallback: "/home", allowedHosts: Self.hosts) == "/home")
    }

    @Test func hostsAreParsedStrictly() {
        #expect(ReturnTarget.absoluteHost("https://App.Test:8080/x") == "app.test")
        #expect(ReturnTarget.absoluteHost("http://[::1]:8080/") == "[::1]")
        #expect(ReturnTarget.absoluteHost("http://a@b/") == nil)
        #expect(ReturnTarget.absoluteHost("/path") == nil)
    }
}
