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

struct HostBoundCookieTests {
    @Test func repeatedNamesAreFound() {
        #expect(CookieHeader.repeatedNames("a=1; b=2;a=3; c") == ["a"])
        #expect(CookieHeader.repeatedNames("a=1; A=2; b=2").isEmpty, "names are case-sensitive")
        #expect(CookieHeader.repeatedNames(nil).isEmpty)
    }

    @Test func overHTTPSTheNameIsHostPrefixedWithPathSlashAndThePlainNameIsNotRead() {
        let jar = CookieJar(header: "frontdoor_csrf=planted; __Host-frontdoor_csrf=own", path: "/account", secure: true)
        #expect(jar.hostBoundValue("frontdoor_csrf") == "own")
        jar.setHostBound("frontdoor_csrf", "new")
        #expect(jar.outgoing.map(\.headerValue) == ["__Host-frontdoor_csrf=new; Path=/; HttpOnly; SameSite=Lax; Secure"])
        #expect(jar.queuedHostBound("frontdoor_csrf") == "new")
    }

    @Test func overPlainHTTPTheNameAndBasePathStay() {
        let jar = CookieJar(header: "__Host-frontdoor_csrf=x; frontdoor_csrf=own", path: "/account", secure: false)
        #expect(jar.hostBoundValue("frontdoor_csrf") == "own")
        jar.setHostBound("frontdoor_csrf", "new", maxAge: 0)
        #expect(jar.outgoing.map(\.headerValue) == ["frontdoor_csrf=new; Path=/account; Max-Age=0; HttpOnly; SameSite=Lax"])
    }

    @Test func aNameSentTwiceIsReadAsAbsent() {
        for secure in [false, true] {
            let name = secure ? "__Host-frontdoor_oauth" : "frontdoor_oauth"
            let jar = CookieJar(header: "\(name)=planted; other=1; \(name)=own", path: "/account", secure: secure)
            #expect(jar.hostBoundValue("frontdoor_oauth") == nil)
            #expect(jar[name] == "planted", "the plain reading is unchanged: first wins")
        }
    }
}
