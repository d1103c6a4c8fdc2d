// FrontdoorClient+SecondFactor.swift: the second step of a sign-in, for an account that has a second factor (a
// one-time code from an authenticator app, or one of its recovery codes).
//
// Options: from Configuration `extraParameters[.completeSignIn]`, `validationRules[.completeSignIn]` and `fieldNames`,
// like any "user" body. The wire (docs/native-apps.md):
//   POST users/sign_in (or users/auth/<provider>) → 401 {"error":"<sentence>","reason":"second_factor_required",
//        "challenge":"<token>","challengeExpiresAt":"2026-11-29T07:05:00.000Z"}       → .secondFactorRequired(challenge)
//   POST users/sign_in/second_factor {"user":{"challenge","code"}}
//        → 201 user with a new token (stored as a sign-in's)
//        → 401 {"error":"<the one failure sentence>"} for a wrong code                → .unauthorized (ask again)
//        → 401 {"error":"<sentence>","reason":"second_factor_expired"}                → .secondFactorExpired (start over)
// Nothing is stored until the second step succeeds: the challenge is no credential (it works once, for a few minutes,
// and only with a right code), so the app keeps it in memory only.
import AccountRules
import Foundation

/// A sign-in that waits for its second step: the password (or the provider's token) was right, and the account asks
/// for a code before the server issues a token.
public struct SecondFactorChallenge: Sendable, Equatable {
    /// The server's challenge, sent back with the code by `completeSignIn(_:code:)`.
    public var token: String
    /// When the challenge stops working (nil when the server did not say); after that, sign in again.
    public var expiresAt: Date?
    /// The server's sentence, ready to show ("Enter the code from your authenticator app…").
    public var message: String

    public init(token: String, expiresAt: Date? = nil, message: String = "") {
        self.token = token
        self.expiresAt = expiresAt
        self.message = message
    }
}

extension FrontdoorClient {
    /// Finishes a sign-in that answered `.secondFactorRequired(challenge)` with `code`: the current code of the
    /// account's authenticator app, or one of its recovery codes (each works once). Remembers the account like
    /// `signIn(email:password:)`.
    ///
    /// ```swift
    /// do {
    ///     try await client.signIn(email: "ann@example.com", password: "correct horse battery")
    /// } catch FrontdoorClientError.secondFactorRequired(let challenge) {
    ///     let code = await askForCode(challenge.message)   // the app's own screen
    ///     try await client.completeSignIn(challenge, code: code)
    /// }
    /// ```
    /// - Throws: `.unauthorized` for a wrong code (the same challenge may be tried again until it expires; wrong codes
    ///   count toward the account's lockout like wrong passwords), `.secondFactorExpired` once the challenge is used
    ///   or expired (sign in again), `.invalid` for an empty code (nothing sent).
    @discardableResult
    public func completeSignIn(_ challenge: SecondFactorChallenge, code: String) async throws -> User {
        // Authenticator apps show "123 456"; the server reads digits and letters only, but an empty code is never sent.
        let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
        let catalog = configuration.catalog
        try check(["code": code], with: Validator([Field("code", displayName: catalog.text("api_field_code"), rules: [.required])]))
        let fields = ["challenge": challenge.token, "code": code]
        return try signedIn(await send("POST", resource + "/sign_in/second_factor", body: body(.completeSignIn, fields)))
    }
}
