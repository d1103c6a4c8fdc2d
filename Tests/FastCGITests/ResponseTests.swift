import Testing
@testable import FastCGI

struct ResponseTests {
    /// Byte fixtures: the response and its exact CGI form.
    static let cases: [(Response, String)] = [
        (Response(status: 200, headers: [(name: "Content-Type", value: "text/plain")], body: Array("hi".utf8)),
         "Status: 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"),
        (Response(status: 303, headers: [(name: "Location", value: "/account/")]),
         "Status: 303 See Other\r\nLocation: /account/\r\nContent-Length: 0\r\n\r\n"),
        (Response(status: 299, headers: [(name: "Set-Cookie", value: "a=1"), (name: "Set-Cookie", value: "b=2"),
                                         (name: "Content-Length", value: "0")]),
         "Status: 299\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"),
        (Response(), "Status: 200 OK\r\nContent-Length: 0\r\n\r\n"),
        (Response(status: 413, headers: [(name: "content-length", value: "3")], body: Array("big".utf8)),
         "Status: 413 Payload Too Large\r\ncontent-length: 3\r\n\r\nbig"),
        (Response(status: 415), "Status: 415 Unsupported Media Type\r\nContent-Length: 0\r\n\r\n"),
        (Response(status: 500, headers: [(name: "Content-Type", value: "text/html; charset=utf-8")], body: Array("é".utf8)),
         "Status: 500 Internal Server Error\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 2\r\n\r\né"),
    ]

    @Test(arguments: 0..<cases.count)
    func serialisesToTheCGIForm(index: Int) {
        let (response, expected) = Self.cases[index]
        #expect(String(decoding: response.serialized(), as: UTF8.self) == expected)
    }

    @Test func headersWithLineBreaksAreNeverWritten() {
        let response = Response(status: 302, headers: [(name: "Location", value: "/x\r\nSet-Cookie: evil=1"),
                                                       (name: "X-Ok", value: "fine"), (name: "Bad\nName", value: "v")])
        let text = String(decoding: response.serialized(), as: UTF8.self)
        #expect(!text.contains("evil"))
        #expect(!text.contains("Bad"))
        #expect(text.contains("X-Ok: fine\r\n"))
    }

    @Test(arguments: ["a\rb", "a\nb", String(repeating: "x", count: 2000) + "\r", "\n" + String(repeating: "é", count: 300)])
    func aLoneCROrLFAnywhereInAValueDropsTheHeader(value: String) {
        let text = String(decoding: Response(headers: [(name: "X-Bad", value: value), (name: "X-Ok", value: "fine")]).serialized(), as: UTF8.self)
        #expect(!text.contains("X-Bad") && text.contains("X-Ok: fine\r\n"))
    }
}
