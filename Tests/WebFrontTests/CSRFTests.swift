import Foundation
import Testing
@testable import WebFront

struct CSRFTests {
    let csrf = CSRF(key: Array(repeating: 7, count: 32))

    @Test func aTokenIsValidOnlyForItsBinding() {
        let token = csrf.token(binding: Data(repeating: 1, count: 32))
        #expect(csrf.isValid(token, binding: Data(repeating: 1, count: 32)))
        #expect(!csrf.isValid(token, binding: Data(repeating: 2, count: 32)))
    }

    @Test func anotherKeyOrAMangledTokenIsRefused() {
        let binding = Data(repeating: 1, count: 32)
        let token = csrf.token(binding: binding)
        #expect(!CSRF(key: Array(repeating: 8, count: 32)).isValid(token, binding: binding))
        #expect(!csrf.isValid(String(token.dropLast()), binding: binding))
        #expect(!csrf.isValid("", binding: binding))
        #expect(!csrf.isValid("not base64 !!", binding: binding))
    }
}
