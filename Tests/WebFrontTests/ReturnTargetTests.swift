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
}
