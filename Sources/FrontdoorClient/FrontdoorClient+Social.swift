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
import Foundation

/// A provider whose tokens the server checks (`social.providers` entries with these presets, see the README).
public struct SocialProvider: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// A Google access token or ID token (Google Sign-In's `idToken` / `accessToken`).
    public static let google = SocialProvider(rawValue: "google")
    /// A Facebook user access token (the Facebook SDK's `AccessToken.current.tokenString`).
    public static let facebook = SocialProvider(rawValue: "facebook")
}

extension FrontdoorClient {
    /// Signs in with `token`, which the app got from `provider`'s SDK, and remembers the account as the active one.
    /// `uid`, when given, is the provider's id of the person; the server refuses the token when it belongs to another.
    @discardableResult
    public func signIn(with provider: SocialProvider, token: String, uid: String? = nil) async throws -> User {
        var fields = ["provider": provider.rawValue, "oauth_token": token]
        if let uid { fields["uid"] = uid }
        let segment = provider.rawValue.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) ?? ""
        return try signedIn(await send("POST", resource + "/auth/" + segment, body: body(.socialSignIn, fields)))
    }
}
