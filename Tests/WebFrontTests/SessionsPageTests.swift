// SessionsPageTests.swift: signing other sessions out needs a recent password entry (OWASP ASVS 3.3.4).
import Foundation
import Testing
@testable import WebFront

struct SessionsPageTests {
    let form = ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"]

    /// Ann signed in twice (two browsers), with long idle timeouts so only the password's age matters.
    func twoSessions() throws -> (TestApp, TestBrowser, TestBrowser) {
        let test = try makeApp { $0.confirmation.required = false; $0.session.idleTimeout = 86400 }
        let first = TestBrowser(test.app), second = TestBrowser(test.app)
        #expect(first.post("/account/sign_up", form).status == 303)
        #expect(second.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse"]).status == 303)
        return (test, first, second)
    }

    func otherHandle(_ browser: TestBrowser) -> String {
        let page = browser.get("/account/settings/sessions").text
        return page.firstMatch(of: /name="handle" value="([^"]+)"/).map { String($0.1) } ?? ""
    }

    @Test func aStaleSessionIsSentToEnterThePasswordBeforeSigningAnotherOut() throws {
        let (test, first, second) = try twoSessions()
        let handle = otherHandle(first)
        #expect(!handle.isEmpty)
        test.clock.advance(by: 3600)
        for (path, fields) in [("/account/settings/sessions/revoke", ["handle": handle]), ("/account/settings/sessions/revoke_others", [:])] {
            let refused = first.post(path, fields)
            #expect(refused.status == 303)
            #expect(refused.header("Location")?.hasPrefix("/account/settings/reauthenticate?rd=") == true)
            #expect(second.get("/account/auth/check").status == 200)
        }
        #expect(first.post("/account/settings/reauthenticate", ["password": "correct horse", "rd": "/account/settings/sessions"]).status == 303)
        #expect(first.post("/account/settings/sessions/revoke", ["handle": handle]).status == 303)
        #expect(second.get("/account/auth/check").status == 401)
        #expect(first.get("/account/auth/check").status == 200)
    }

    @Test func aFreshSessionSignsTheOthersOutAtOnce() throws {
        let (_, first, second) = try twoSessions()
        #expect(first.post("/account/settings/sessions/revoke_others", [:]).status == 303)
        #expect(second.get("/account/auth/check").status == 401)
        #expect(first.get("/account/auth/check").status == 200)
    }
}
