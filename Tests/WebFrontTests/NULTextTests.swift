// NULTextTests.swift: a NUL character in a form, a query or JSON text is refused with a 400 before any page sees it:
// PostgreSQL would keep the text up to the NUL and SQLite all of it, so one value would mean two things.
import AccountCore
import Foundation
import Testing
@testable import WebFront

struct NULTextTests {
    @Test func aFormOrQueryWithNULIsABadRequestAndNothingIsStored() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        let refused = browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct\u{0}horse",
                                                        "password_confirmation": "correct\u{0}horse"])
        #expect(refused.status == 400)
        #expect(refused.text.contains("The request could not be understood."))
        #expect(browser.get("/account/sign_in?return_to=%2Faccount%00x").status == 400)
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
        // The same form without it goes through.
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
    }

    @Test func JSONTextWithNULIsABadRequest() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let api = APIClient(test.app)
        for body in [["user": ["email": "ann@example.com", "password": "correct\u{0}horse"]],
                     ["user": ["email": "ann@example.com", "password": "correct horse", "display\u{0}Name": "x"]],
                     ["user": ["email": "ann@example.com", "password": "correct horse"], "extra": ["a\u{0}"]]] as [[String: Any]] {
            let answer = api.send("POST", "v1/users", body)
            #expect(answer.status == 400)
            #expect(answer.message == "The request could not be understood: send a JSON object.")
        }
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
    }

    @Test func formDataSaysWhetherTextHoldsNUL() {
        #expect(FormData.holdsNUL(Array("a=b%00c".utf8)))
        #expect(FormData.holdsNUL(Array("a=b".utf8) + [0]))
        #expect(FormData.holdsNUL(Array("a=%%00".utf8)))
        #expect(!FormData.holdsNUL(Array("a=b%0&c=%0A%100&d=%2500".utf8)))
    }

    /// Only urlencoded bodies are read that way: "%00" in a JSON string is three characters.
    @Test func percentZeroZeroInJSONIsText() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let answer = APIClient(test.app).send("POST", "v1/users", ["user": ["email": "ann@example.com", "password": "correct %00 horse"]])
        #expect(answer.status == 201)
    }
}
