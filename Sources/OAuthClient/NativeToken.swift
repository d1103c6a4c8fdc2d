// NativeToken.swift: who a token belongs to that a native app got from the provider's own SDK (the JSON API's
// POST v1/users/auth/{facebook,google,x}), checked with the provider, never trusted as sent.
//   google    an ID token (three dot-separated parts) → GET tokeninfo?id_token=…; otherwise an access token →
//             GET tokeninfo?access_token=…. `aud` must be `clientID` or one of `nativeClientIDs` (`azp` alone does not do), `sub`
//             present, not expired; an ID token's `iss` must be accounts.google.com (with or without https://).
//             email and email_verified ("true"/true) from the answer; name from userinfo when there is one.
//   facebook  GET debug_token?input_token=…&access_token=<clientID>|<clientSecret> → data.is_valid true, data.app_id
//             `clientID` or one of `nativeClientIDs`, data.user_id; then Graph `me` with the token (ProfileMapping),
//             whose id must equal data.user_id.
//   twitter   GET users/me with the token as Bearer, only with `nativeAccessTokens` (NativeToken+X.swift; also a code
//             redeemed with our client there).
//   others    OAuthError.provider("… takes no native tokens").
// Errors: OAuthError.unreachable (connection), .provider (refused or invalid token, wrong app), .invalidResponse.
// Details: the endpoint is `tokenInfoEndpoint` (empty: the preset's). Expiry: google `exp` (or `expires_in`), facebook
// `expires_at` when not 0, against `now`. An ID token's `iss` may also be the configured issuer. Google's name: the
// answer's `name`, else (access tokens only) userinfo (configured, else discovered), best effort: its failure or
// another `sub` leaves the name out. No message carries the token, the client secret or the app access token: every
// error on the way is rewritten with them replaced by "…" (CurlHTTPClient names the URL, query and all).
import Foundation

extension OAuthProvider {
    /// The identity behind `token`, checked with the provider; `tokens` of the answer carries `token` as access token
    /// (for an ID token too: there is no other token).
    public func identity(fromNativeToken token: String) throws -> ProviderIdentity {
        let secrets = [token, configuration.clientSecret, facebookAppToken]
        do {
            if configuration.kind == .google || configuration.kind == .facebook || configuration.kind == .twitter, token.isEmpty {
                throw OAuthError.provider("\(configuration.id): the token is empty")
            }
            switch configuration.kind {
            case .google: return try googleIdentity(token)
            case .facebook: return try facebookIdentity(token)
            case .twitter: return try twitterIdentity(token)
            case .oidc, .github: throw OAuthError.provider("\(configuration.id) takes no native tokens")
            }
        } catch let error as OAuthError {
            throw error.redacting(secrets)
        }
    }

    /// `clientID` and the operator's native apps' client ids: the audiences a native token may have.
    private var acceptedClientIDs: Set<String> { Set([configuration.clientID] + configuration.nativeClientIDs) }

    /// Facebook's app access token: only ever sent to debug_token.
    private var facebookAppToken: String { configuration.clientID + "|" + configuration.clientSecret }

    private var tokenInfoURL: String {
        configuration.tokenInfoEndpoint.isEmpty ? configuration.kind.preset.tokenInfoEndpoint : configuration.tokenInfoEndpoint
    }

    // MARK: Google

    private func googleIdentity(_ token: String) throws -> ProviderIdentity {
        let id = configuration.id
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let isIDToken = parts.count == 3 && parts.allSatisfy { !$0.isEmpty }
        let what = "\(id) tokeninfo"
        let response = try http.send(HTTPRequest(url: FormEncoding.appending([(isIDToken ? "id_token" : "access_token", token)], to: tokenInfoURL),
                                                 headers: [HTTPRequest.Header("Accept", "application/json")]))
        guard (200..<300).contains(response.status) else {
            let reason = (try? JSONValue.object(response.body, what: what)).flatMap { $0["error_description"]?.string ?? $0["error"]?.string }
            throw OAuthError.provider("\(what) refused the token (HTTP \(response.status)\(reason.map { ": \($0)" } ?? ""))")
        }
        let answer = try JSONValue.object(response.body, what: what)
        // The audience decides (Google's guidance): a token made for another backend is refused even when our app is
        // its authorized party (azp).
        guard let audience = answer["aud"]?.string, acceptedClientIDs.contains(audience) else {
            throw OAuthError.provider("\(what): the token is for another client (aud \(answer["aud"]?.string ?? "none"))")
        }
        guard let subject = answer["sub"]?.identifier else { throw OAuthError.invalidResponse("\(what) gives no sub") }
        let time = now()
        let expiresAt: Date
        if let exp = answer["exp"]?.integer {
            expiresAt = Date(timeIntervalSince1970: TimeInterval(exp))
        } else if let seconds = answer["expires_in"]?.integer {
            expiresAt = time.addingTimeInterval(TimeInterval(seconds))
        } else {
            throw OAuthError.invalidResponse("\(what) gives no exp")
        }
        guard expiresAt > time else { throw OAuthError.provider("\(what): the token has expired") }
        if isIDToken {
            let issuers: Set<String> = ["accounts.google.com", "https://accounts.google.com", configuration.issuer]
            guard let issuer = answer["iss"]?.string, !issuer.isEmpty, issuers.contains(issuer) else {
                throw OAuthError.provider("\(what): the ID token is from another issuer (\(answer["iss"]?.string ?? "none"))")
            }
        }
        let tokens = ProviderTokens(accessToken: token, expiresAt: expiresAt)
        var email = ProfileMapping.nonEmpty(answer["email"])
        var emailVerified = answer["email_verified"]?.bool ?? false
        var name = ProfileMapping.nonEmpty(answer["name"])
        if !isIDToken, name == nil || email == nil, let info = googleUserInfo(tokens), info["sub"]?.identifier == subject {
            name = name ?? ProfileMapping.nonEmpty(info["name"])
            if email == nil, let address = ProfileMapping.nonEmpty(info["email"]) {
                email = address
                emailVerified = info["email_verified"]?.bool ?? false
            }
        }
        return ProviderIdentity(provider: id, subject: subject, email: email, emailVerified: email != nil && emailVerified,
                                name: name, username: nil, tokens: tokens)
    }

    /// The userinfo answer for an access token, or nil when there is no endpoint or it fails (it only adds a name).
    private func googleUserInfo(_ tokens: ProviderTokens) -> [String: JSONValue]? {
        guard let url = try? endpoint(\.userInfoEndpoint, \.userInfoEndpoint, required: false), !url.isEmpty else { return nil }
        return try? http.getObject(url, headers: [HTTPRequest.Header("Authorization", "Bearer \(tokens.accessToken)")],
                                   what: "\(configuration.id) userinfo")
    }

    // MARK: Facebook

    private func facebookIdentity(_ token: String) throws -> ProviderIdentity {
        let id = configuration.id
        let what = "\(id) debug_token"
        let url = FormEncoding.appending([("input_token", token), ("access_token", facebookAppToken)], to: tokenInfoURL)
        let response = try http.send(HTTPRequest(url: url, headers: [HTTPRequest.Header("Accept", "application/json")]))
        let answer = try? JSONValue.object(response.body, what: what)
        let data = answer?["data"]?.object
        guard (200..<300).contains(response.status), let data, data["is_valid"]?.bool == true else {
            let error = data?["error"]?.object ?? answer?["error"]?.object
            let reason = error?["message"]?.string.map { ": \($0)" } ?? ""
            if (200..<300).contains(response.status), data == nil { throw OAuthError.invalidResponse("\(what) gives no data") }
            throw OAuthError.provider("\(what) says the token is not valid (HTTP \(response.status)\(reason))")
        }
        guard let app = data["app_id"]?.identifier, acceptedClientIDs.contains(app) else {
            throw OAuthError.provider("\(what): the token is for another app (\(data["app_id"]?.identifier ?? "none"))")
        }
        guard let userID = data["user_id"]?.identifier else { throw OAuthError.invalidResponse("\(what) gives no user_id") }
        var expiresAt: Date?
        if let seconds = data["expires_at"]?.integer, seconds != 0 {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            guard date > now() else { throw OAuthError.provider("\(what): the token has expired") }
            expiresAt = date
        }
        let identity = try ProfileMapping.facebook(tokens: ProviderTokens(accessToken: token, expiresAt: expiresAt),
                                                   meURL: try endpoint(\.userInfoEndpoint, nil),
                                                   provider: id, http: http)
        guard identity.subject == userID else {
            throw OAuthError.provider("\(id) me names another user (\(identity.subject)) than debug_token (\(userID))")
        }
        return identity
    }
}

extension OAuthError {
    /// This error with each of `secrets` (as written and as percent-encoded in a URL) replaced by "…".
    func redacting(_ secrets: [String]) -> OAuthError {
        func clean(_ message: String) -> String {
            var message = message
            for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
                for form in Set([secret, FormEncoding.escape(secret)]) {
                    message = message.replacingOccurrences(of: form, with: "…")
                }
            }
            return message
        }
        switch self {
        case let .unreachable(message): return .unreachable(clean(message))
        case let .provider(message): return .provider(clean(message))
        case let .invalidResponse(message): return .invalidResponse(clean(message))
        case let .invalidIDToken(message): return .invalidIDToken(clean(message))
        }
    }
}
