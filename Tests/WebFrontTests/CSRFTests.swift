import Crypto
import Encodings
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

    /// The token is HMAC-SHA256(key, "frontdoor-csrf-v1:" + binding), whatever tokens were made before it (each starts
    /// from the keyed HMAC, which none of them changes).
    @Test func eachTokenIsTheHMACOfItsBindingAlone() {
        for byte: UInt8 in [1, 2, 1, 3] {
            let binding = Data(repeating: byte, count: 32)
            let expected = HMAC<SHA256>.authenticationCode(for: Data("frontdoor-csrf-v1:".utf8) + binding,
                                                           using: SymmetricKey(data: Array(repeating: UInt8(7), count: 32)))
            #expect(csrf.token(binding: binding) == Base64URL.encode(Array(expected)))
        }
    }
}
