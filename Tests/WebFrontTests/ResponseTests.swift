// ResponseTests.swift: WebFront's response: header access by name, without case, and set replacing every same-named one.
import Testing
@testable import WebFront

struct ResponseTests {
    @Test func headerAccessIsCaseInsensitiveAndSetReplaces() {
        var response = Response()
        response.addHeader("Set-Cookie", "a=1")
        response.addHeader("set-cookie", "b=2")
        #expect(response.header("SET-COOKIE") == "a=1")
        response.setHeader("Set-Cookie", "c=3")
        #expect(response.headers.map(\.value) == ["c=3"])
    }

    @Test func aTextResponseCarriesItsContentTypeAndUTF8Body() {
        let response = Response(status: 500, contentType: "text/html; charset=utf-8", text: "é")
        #expect(response.status == 500)
        #expect(response.header("content-type") == "text/html; charset=utf-8")
        #expect(response.body == [0xC3, 0xA9])
    }
}
