import Testing
@testable import WebFront

struct SitePathsTests {
    @Test func linksFormsAndCookiesHonourTheBasePath() {
        let paths = SitePaths(base: "/account/")
        #expect(paths.base == "/account")
        #expect(paths.home == "/account/")
        #expect(paths.path("sign_in") == "/account/sign_in")
        #expect(paths.signIn(returnTo: "/account/?a=1&b=2") == "/account/sign_in?rd=%2Faccount%2F%3Fa%3D1%26b%3D2")
        #expect(paths.signIn(returnTo: "/account/?q=" + String(repeating: "%", count: 676)).count < 2100)
        #expect(paths.signIn(returnTo: "/account/?q=" + String(repeating: "%", count: 700)) == "/account/sign_in")
        #expect(paths.cookiePath == "/account")
    }

    @Test func atTheRootEveryPathStillStartsWithOneSlash() {
        let paths = SitePaths(base: "")
        #expect(paths.home == "/")
        #expect(paths.path("sign_up") == "/sign_up")
        #expect(paths.cookiePath == "/")
        #expect(paths.route(forRequestPath: "/sign_up") == "sign_up")
    }

    @Test func requestPathsMapToRoutesOnlyUnderTheBase() {
        let paths = SitePaths(base: "/account")
        #expect(paths.route(forRequestPath: "/account") == "")
        #expect(paths.route(forRequestPath: "/account/") == "")
        #expect(paths.route(forRequestPath: "/account/sign_in/") == "sign_in")
        #expect(paths.route(forRequestPath: "/accounts/sign_in") == nil)
        #expect(paths.route(forRequestPath: "/other") == nil)
        #expect(paths.route(forRequestPath: "/account//v1//users//") == "v1//users")
        #expect(paths.route(forRequestPath: "///account") == nil && paths.route(forRequestPath: "/acc") == nil)
        #expect(paths.route(forRequestPath: "/account/é/") == "é" && paths.route(forRequestPath: "") == nil)
        #expect(SitePaths(base: "").route(forRequestPath: "") == "" && SitePaths(base: "").route(forRequestPath: "//") == "")
    }
}
