// SecondFactorIntegrationTests.swift: signIn and completeSignIn against the real server, for an account whose person
// turned one-time codes on at settings/two_step (in a Browser, as a person would); the codes come from the page's key
// (RFC 6238, HMAC-SHA1, 30 s, 6 digits, computed here with swift-crypto).
import Crypto
import Foundation
@testable import FrontdoorClient
import Testing

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct SecondFactorIntegrationTests {
    @Test func aSignInWithCodesOnAsksTheCodeAndCompletesWithIt() async throws {
        let stack = try await TestServer.shared.stack()
        let email = Integration.email("twostep")
        let key = try await Self.enrolled(stack, email: email)
        let client = Integration.client(stack)
        var asked: SecondFactorChallenge?
        do {
            try await client.signIn(email: email, password: Integration.password)
            Issue.record("signed in without the code")
        } catch FrontdoorClientError.secondFactorRequired(let challenge) {
            asked = challenge
        }
        let challenge = try #require(asked)
        #expect(challenge.token.count == 43)
        #expect(challenge.message == "Enter the code from your authenticator app (or a recovery code) to finish signing in.")
        #expect(try #require(challenge.expiresAt) > Date())
        #expect(!client.isSignedIn)

        // A wrong code: the server's one answer, and the same challenge may be tried again.
        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid code.")) {
            try await client.completeSignIn(challenge, code: Self.wrongCode(key))
        }
        let user = try await client.completeSignIn(challenge, code: Self.code(key, offset: 30))
        #expect(user.email == email)
        #expect(client.currentUser?.email == email)
        #expect(try await client.reload().email == email)

        // Used: start over.
        let other = Integration.client(stack)
        await #expect(throws: FrontdoorClientError.secondFactorExpired(message: "This sign-in has expired or was already finished. Sign in again.")) {
            try await other.completeSignIn(challenge, code: Self.code(key, offset: 30))
        }
        #expect(!other.isSignedIn)
    }

    // MARK: - What the person does in the browser

    /// Signs `email` up, turns codes on in the settings and returns the key the page showed (its code now is spent).
    static func enrolled(_ stack: Stack, email: String) async throws -> [UInt8] {
        let browser = Browser()
        let signUp = stack.base.appendingPathComponent("sign_up")
        let form = try await browser.get(signUp)
        let signedUp = try await browser.post(signUp, ["csrf_token": try #require(Browser.field("csrf_token", in: form.text)), "email": email,
                                                       "password": Integration.password, "password_confirmation": Integration.password])
        #expect(signedUp.status == 303)
        let page = stack.base.appendingPathComponent("settings/two_step")
        let off = try await browser.get(page)
        let csrf = try #require(Browser.field("csrf_token", in: off.text))
        #expect(try await browser.post(page.appendingPathComponent("begin"), ["csrf_token": csrf]).status == 303)
        let enrolling = try await browser.get(page)
        let shown = try #require(enrolling.text.range(of: #"<code class="two-step-secret">([A-Z2-7 ]+)</code>"#, options: .regularExpression))
        let text = enrolling.text[shown].dropFirst(#"<code class="two-step-secret">"#.count).dropLast("</code>".count)
        let key = try #require(base32(text.replacingOccurrences(of: " ", with: "")))
        let confirmed = try await browser.post(page, ["csrf_token": csrf, "code": code(key)])
        #expect(confirmed.status == 200)
        return key
    }

    /// The RFC 6238 code of `key` for now + `offset` seconds.
    static func code(_ key: [UInt8], offset: TimeInterval = 0) -> String {
        let step = UInt64((Date().timeIntervalSince1970 + offset) / 30)
        let counter = (0..<8).map { UInt8(truncatingIfNeeded: step >> (56 - 8 * $0)) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: key)))
        let at = Int(mac[19] & 0x0F)
        let value = (UInt32(mac[at] & 0x7F) << 24 | UInt32(mac[at + 1]) << 16 | UInt32(mac[at + 2]) << 8 | UInt32(mac[at + 3])) % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// A code none of the steps the server accepts now (±1, and the next) has.
    static func wrongCode(_ key: [UInt8]) -> String {
        let near = Set([-60, -30, 0, 30, 60].map { code(key, offset: TimeInterval($0)) })
        return (0..<1000).lazy.map { String(format: "%06d", $0 * 7919 % 1_000_000) }.first { !near.contains($0) }!
    }

    /// RFC 4648 base32 without padding; nil for a character outside its alphabet.
    static func base32(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bytes: [UInt8] = [], buffer = 0, bits = 0
        for character in text {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            buffer = buffer << 5 | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: buffer >> (bits - 8)))
                bits -= 8
                buffer &= (1 << bits) - 1
            }
        }
        return bytes
    }
}
