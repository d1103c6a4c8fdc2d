// FrontdoorClient+Social.swift: sign-in with a token from a provider's own SDK (SocialAuth's "masquerading": the app
// hands the provider's credentials to its backend), `POST v1/users/auth/<provider>`.
//
// Options: from Configuration `extraParameters[.socialSignIn]`, `validationRules[.socialSignIn]` and `fieldNames`,
// like any "user" body. Sent: {"user":{"provider","oauth_token","uid"?}}; the server checks the token with the
// provider (Google: an access or ID token; Facebook: a user access token), never trusting what the app says, and
// signs in the account of the provider's verified address (made when sign-up is open). The answer is stored like a
// password sign-in's: the account becomes the active one, the others stay. Failures: `.validation` (422 with the
// server's message: the provider is not configured, refused the token, the uid is not the token's subject, the
// address belongs to an account that has not linked the provider, or the provider gives no verified address),
// `.server(status: 502, …)` (the provider could not be asked), and the server's answer when sign-up is closed.
// X: `signIn(with: .x, code:codeVerifier:redirectURI:)` sends {"user":{"provider":"x","code","code_verifier",
// "redirect_uri"}}, an authorization code the app got with the server's X client id (PKCE S256, its own redirect URI
// registered at X), which the server redeems with its client secret, so X refuses a code issued to any other app. An X
// access token (`signIn(with: .x, token:)`) is refused unless the server's operator switched that form on, and then
// never counts as a recent sign-in (X cannot say which app a token was issued to). An empty code, verifier or redirect
// URI is `.invalid`, nothing sent.
import AccountRules
import Foundation

/// A provider whose tokens the server checks (`social.providers` entries with these presets, see docs/configuration.md).
public struct SocialProvider: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// A Google access token or ID token (Google Sign-In's `idToken` / `accessToken`).
    public static let google = SocialProvider(rawValue: "google")
    /// A Facebook user access token (the Facebook SDK's `AccessToken.current.tokenString`).
    public static let facebook = SocialProvider(rawValue: "facebook")
    /// X (Twitter): an authorization code (`signIn(with:code:codeVerifier:redirectURI:)`), the form X binds to the server's client.
    public static let x = SocialProvider(rawValue: "x")
}

extension FrontdoorClient {
    /// Signs in with `token`, which the app got from `provider`'s SDK, and remembers the account as the active one.
    /// `uid`, when given, is the provider's id of the person; the server refuses the token when it belongs to another.
    @discardableResult
    public func signIn(with provider: SocialProvider, token: String, uid: String? = nil) async throws -> User {
        var fields = ["provider": provider.rawValue, "oauth_token": token]
        if let uid { fields["uid"] = uid }
        return try signedIn(await send("POST", Self.authPath(resource, provider), body: body(.socialSignIn, fields)))
    }

    /// Signs in with an authorization code the app got from `provider` (X) with the server's client id, PKCE's
    /// `codeVerifier` and the `redirectURI` it used, and remembers the account as the active one.
    ///
    /// ```swift
    /// let user = try await client.signIn(with: .x, code: code, codeVerifier: verifier, redirectURI: "com.example.app:/x-callback")
    /// ```
    @discardableResult
    public func signIn(with provider: SocialProvider, code: String, codeVerifier: String, redirectURI: String) async throws -> User {
        let fields = ["provider": provider.rawValue, "code": code, "code_verifier": codeVerifier, "redirect_uri": redirectURI]
        try check(fields, with: Validator(["code", "code_verifier", "redirect_uri"].map { Field($0, displayName: $0, rules: [.required]) }))
        return try signedIn(await send("POST", Self.authPath(resource, provider), body: body(.socialSignIn, fields)))
    }

    /// `<resource>/auth/<provider>`, the provider's name one escaped path segment.
    private static func authPath(_ resource: String, _ provider: SocialProvider) -> String {
        resource + "/auth/" + (provider.rawValue.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) ?? "")
    }
}
