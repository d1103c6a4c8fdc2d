import Testing
@testable import WebFront

struct CookiesTests {
    @Test func parsesTheCookieHeader() {
        let cookies = CookieHeader.parse("a=1; b=\"two\";c=x=y; broken; a=ignored")
        #expect(cookies == ["a": "1", "b": "two", "c": "x=y"])
        #expect(CookieHeader.parse(nil).isEmpty)
    }

    @Test func setCookieIsHttpOnlyAndLaxAndSecureOnlyWhenAsked() {
        let plain = SetCookie(name: "s", value: "v", path: "/account", secure: false).headerValue
        #expect(plain == "s=v; Path=/account; HttpOnly; SameSite=Lax")
        let secure = SetCookie(name: "s", value: "", path: "/", maxAge: 0, secure: true).headerValue
        #expect(secure == "s=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure")
    }
}
