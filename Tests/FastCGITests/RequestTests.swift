import Testing
@testable import FastCGI

struct RequestTests {
    @Test func headersMapToTheirCGINames() {
        let request = Request(params: ["HTTP_COOKIE": "a=1", "HTTP_USER_AGENT": "ua", "CONTENT_TYPE": "text/plain", "CONTENT_LENGTH": "3"])
        #expect(request.header("Cookie") == "a=1")
        #expect(request.header("user-agent") == "ua")
        #expect(request.header("Content-Type") == "text/plain")
        #expect(request.header("Content-Length") == "3")
        #expect(request.header("X-Missing") == nil)
    }

    @Test func pathAndQueryComeFromTheURI() {
        let request = Request(params: ["REQUEST_URI": "/account/sign_in?rd=%2F&x=1"])
        #expect(request.path == "/account/sign_in")
        #expect(request.query == "rd=%2F&x=1")
        #expect(Request(params: ["REQUEST_URI": "/a?b", "QUERY_STRING": "c=d"]).query == "c=d")
    }

    @Test func withoutRequestURIPlainCGIServersGetOneBuilt() {
        let request = Request(params: ["SCRIPT_NAME": "/cgi-bin/frontdoor", "PATH_INFO": "/sign_in", "QUERY_STRING": "a=1"])
        #expect(request.uri == "/cgi-bin/frontdoor/sign_in?a=1")
        #expect(Request(params: [:]).uri == "/")
    }

    @Test func methodDefaultsToGetAndIsUpperCased() {
        #expect(Request(params: [:]).method == "GET")
        #expect(Request(params: ["REQUEST_METHOD": "post"]).method == "POST")
    }

    @Test(arguments: [(["HTTPS": "on"], true), (["HTTPS": "ON"], true), (["HTTPS": "1"], true),
                      (["REQUEST_SCHEME": "https"], true), (["HTTPS": "off"], false), ([:], false)])
    func httpsIsTakenFromTheServer(params: [String: String], expected: Bool) {
        #expect(Request(params: params).isHTTPS == expected)
    }
}
