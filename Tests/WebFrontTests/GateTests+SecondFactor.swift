// GateTests+SecondFactor.swift: the gate's FRONTDOOR_REQUIRE and `second_factor: required`: a one-factor session gets
// 401 with the second step's URL carrying the original one; two factors pass; an unknown word refuses everyone.
import AccountCore
import Testing
@testable import WebFront

extension GateTests {
    func check(_ browser: TestBrowser, original: String?, require: String?) -> Response {
        var params = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/auth/check", "REMOTE_ADDR": "127.0.0.1"]
        if !browser.cookies.isEmpty { params["HTTP_COOKIE"] = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if let original { params["HTTP_X_ORIGINAL_URL"] = original }
        if let require { params["FRONTDOOR_REQUIRE"] = require }
        return browser.send(Request(params: params))
    }

    @Test func twoFactorsAreDemandedByTheLocationOrThePolicy() throws {
        for policy in [SecondFactorPolicy.Mode.optional, .required] {
            let test = try makeApp { $0.confirmation.required = false; $0.publicURL = "https://login.example.com"; $0.secondFactor = policy }
            let browser = TestBrowser(test.app)
            #expect(browser.post("/account/sign_up", signUpForm).status == 303)
            let original = "https://login.example.com/wiki/page"
            let demanded = check(browser, original: original, require: "2fa")
            #expect(demanded.status == 401)
            #expect(demanded.header("Location") == "https://login.example.com/account/sign_in/second_factor?rd=https%3A%2F%2Flogin.example.com%2Fwiki%2Fpage")
            #expect(check(browser, original: original, require: nil).status == (policy == .required ? 401 : 200), "\(policy)")
            #expect(check(browser, original: original, require: "2fa, sso").status == 403, "an unknown word opens nothing")
            try test.services.database.write { tx in try tx.execute("UPDATE session SET factors = 2") }
            #expect(check(browser, original: original, require: "2fa").status == 200)
            #expect(check(browser, original: original, require: " 2FA ").status == 200, "case and spaces do not matter")
        }
    }

    @Test func theRequirementParses() {
        #expect(Gate.requiredFactors("2fa") == 2 && Gate.requiredFactors("") == 1 && Gate.requiredFactors("2fa,2fa") == 2)
        #expect(Gate.requiredFactors("mfa") == nil && Gate.requiredFactors("2fa totp") == nil)
    }
}
