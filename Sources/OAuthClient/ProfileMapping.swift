// ProfileMapping.swift: who signed in, read from each provider's profile API with the access token (Bearer).
//   github    GET user → id (subject), login (username), name, email; GET emails → [{email, primary, verified}]:
//             the primary verified address, else the first verified one, else /user's email with emailVerified false;
//             the other verified addresses (at most 20) as otherVerifiedEmails (an emails endpoint that answers non-2xx, e.g. scope not granted, counts as an empty list)
//   facebook  GET me?fields=id,name,email → id, name, email (verified when given: Facebook gives only confirmed ones)
//   twitter   GET /2/users/me → data.id, data.username, data.name; no email
//   oidc      userinfo (when the ID token lacks an email): sub must equal the ID token's; email, email_verified, name,
//             preferred_username fill in what the ID token left out
// A profile without a subject → OAuthError.invalidResponse; a non-2xx profile answer → OAuthError.provider.
import Foundation

/// Reading the signed-in person's profile.
enum ProfileMapping {
    /// The identity GitHub's `user` and `emails` endpoints describe.
    static func github(tokens: ProviderTokens, userURL: String, emailsURL: String, provider: String, http: any HTTPClient) throws -> ProviderIdentity {
        let headers = apiHeaders(tokens)
        let user = try http.getObject(userURL, headers: headers, what: "GitHub user \(userURL)")
        guard let subject = user["id"]?.identifier else { throw OAuthError.invalidResponse("GitHub user \(userURL) has no id") }
        var addresses: [(email: String, primary: Bool, verified: Bool)] = []
        if !emailsURL.isEmpty {
            do {
                let list = try http.getValue(emailsURL, headers: headers, what: "GitHub emails \(emailsURL)")
                addresses = (list.array ?? []).compactMap { item in
                    guard let entry = item.object, let email = entry["email"]?.string, !email.isEmpty else { return nil }
                    return (email, entry["primary"]?.bool ?? false, entry["verified"]?.bool ?? false)
                }
            } catch OAuthError.provider {
                addresses = []
            }
        }
        let chosen = addresses.first { $0.primary && $0.verified } ?? addresses.first { $0.verified }
        let email = chosen?.email ?? user["email"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let others = addresses.filter { $0.verified && $0.email.lowercased() != chosen?.email.lowercased() }.prefix(20).map(\.email)
        return ProviderIdentity(provider: provider, subject: subject, email: email, emailVerified: chosen != nil,
                                name: nonEmpty(user["name"]), username: nonEmpty(user["login"]), tokens: tokens,
                                otherVerifiedEmails: Array(others))
    }

    /// The identity Facebook's Graph `me` describes.
    static func facebook(tokens: ProviderTokens, meURL: String, provider: String, http: any HTTPClient) throws -> ProviderIdentity {
        let me = try http.getObject(meURL, headers: apiHeaders(tokens), what: "Facebook me \(meURL)")
        guard let subject = me["id"]?.identifier else { throw OAuthError.invalidResponse("Facebook me \(meURL) has no id") }
        let email = nonEmpty(me["email"])
        return ProviderIdentity(provider: provider, subject: subject, email: email, emailVerified: email != nil,
                                name: nonEmpty(me["name"]), username: nil, tokens: tokens)
    }

    /// The identity X's `users/me` describes (never an email).
    static func twitter(tokens: ProviderTokens, meURL: String, provider: String, http: any HTTPClient) throws -> ProviderIdentity {
        let answer = try http.getObject(meURL, headers: apiHeaders(tokens), what: "X users/me \(meURL)")
        guard let data = answer["data"]?.object, let subject = data["id"]?.identifier else {
            throw OAuthError.invalidResponse("X users/me \(meURL) has no data.id")
        }
        return ProviderIdentity(provider: provider, subject: subject, email: nil, emailVerified: false,
                                name: nonEmpty(data["name"]), username: nonEmpty(data["username"]), tokens: tokens)
    }

    /// The ID token's claims, completed from the userinfo endpoint when they lack an email and there is one.
    static func openID(claims: IDTokenClaims, tokens: ProviderTokens, userInfoURL: String, provider: String,
                       http: any HTTPClient) throws -> ProviderIdentity {
        var claims = claims
        if claims.email == nil, !userInfoURL.isEmpty {
            let info = try http.getObject(userInfoURL, headers: apiHeaders(tokens), what: "userinfo \(userInfoURL)")
            guard info["sub"]?.string == claims.subject else {
                throw OAuthError.invalidResponse("userinfo \(userInfoURL) names another subject than the ID token")
            }
            if let email = nonEmpty(info["email"]) {
                claims.email = email
                claims.emailVerified = info["email_verified"]?.bool ?? false
            }
            claims.name = claims.name ?? nonEmpty(info["name"])
            claims.preferredUsername = claims.preferredUsername ?? nonEmpty(info["preferred_username"])
        }
        return ProviderIdentity(provider: provider, subject: claims.subject, email: claims.email,
                                emailVerified: claims.email != nil && claims.emailVerified, name: claims.name,
                                username: claims.preferredUsername, tokens: tokens)
    }

    /// Bearer token, and a User-Agent (GitHub's API refuses requests without one).
    private static func apiHeaders(_ tokens: ProviderTokens) -> [HTTPRequest.Header] {
        [HTTPRequest.Header("Authorization", "Bearer \(tokens.accessToken)"), HTTPRequest.Header("User-Agent", "Frontdoor")]
    }

    /// The value's text, or nil when it is missing or empty.
    static func nonEmpty(_ value: JSONValue?) -> String? {
        guard let text = value?.string, !text.isEmpty else { return nil }
        return text
    }
}
