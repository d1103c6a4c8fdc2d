// ClientDataTests.swift: clientDataJSON as browsers write it, members in any order and extra ones ignored, and the
// challenge compared as bytes (base64url without padding, as the spec and browsers write it).
import Encodings
import Testing
@testable @_spi(Testing) import WebAuthn

struct ClientDataTests {
    let origins = ["https://id.example.com"]

    func check(_ json: String, _ ceremony: ClientData.Ceremony = .assertion, challenge: [UInt8] = [1, 2, 3, 4]) -> WebAuthnError? {
        do { try ClientData(Array(json.utf8)).check(ceremony: ceremony, challenge: challenge, origins: origins); return nil }
        catch { return error }
    }

    @Test func membersInAnyOrderAndExtraOnesIgnored() {
        #expect(check(#"{"origin":"https://id.example.com","challenge":"AQIDBA","crossOrigin":false,"type":"webauthn.get","topOrigin":"x","other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}"#) == nil)
        #expect(check(#"{"type":"webauthn.create","challenge":"AQIDBA","origin":"https://id.example.com"}"#, .registration) == nil)
    }

    @Test func theChallengeIsComparedAsBytes() {
        let base = #"{"type":"webauthn.get","origin":"https://id.example.com","challenge":"#
        #expect(check(base + #""AQIDBQ"}"#) == .challengeMismatch)
        #expect(check(base + #""AQIDBA=="}"#) == .challengeMismatch, "padding is not how browsers write it")
        #expect(check(base + #""AQID"}"#) == .challengeMismatch, "a prefix")
        #expect(check(base + #""AQIDBA"}"#, challenge: []) == .challengeMismatch)
        #expect(check(base + #""AQ+DBA"}"#) == .challengeMismatch, "base64, not base64url")
        #expect(ClientData.constantTimeEqual([1, 2], [1, 2]) && !ClientData.constantTimeEqual([1, 2], [1, 3])
                && !ClientData.constantTimeEqual([1], [1, 2]) && ClientData.constantTimeEqual([], []))
    }

    @Test func theOriginMatchesExactly() {
        for origin in ["https://id.example.com/", "https://ID.example.com", "https://id.example.com:443", "http://id.example.com",
                       "https://id.example.com.evil.example", "null"] {
            #expect(check(#"{"type":"webauthn.get","challenge":"AQIDBA","origin":"\#(origin)"}"#) == .originNotAllowed, "\(origin)")
        }
    }

    @Test func crossOriginTrueIsRefused() {
        #expect(check(#"{"type":"webauthn.get","challenge":"AQIDBA","origin":"https://id.example.com","crossOrigin":true}"#) == .crossOrigin)
    }

    @Test func anythingElseIsMalformed() {
        for json in ["", "[]", "{}", #"{"type":"webauthn.get","challenge":"AQIDBA"}"#,
                     #"{"type":1,"challenge":"AQIDBA","origin":"https://id.example.com"}"#,
                     #"{"type":"webauthn.get","challenge":"AQIDBA","origin":"https://id.example.com","crossOrigin":"no"}"#] {
            #expect(check(json) == .malformed(.clientData), "\(json)")
        }
        #expect(check(#"{"type":"webauthn.create","challenge":"AQIDBA","origin":"https://id.example.com"}"#) == .wrongType)
        #expect(check(#"{"type":"payment.get","challenge":"AQIDBA","origin":"https://id.example.com"}"#) == .wrongType)
    }
}
