// SocialVerifiedAddresses.swift: every address a GitHub identity has verified, for the picker's candidates
// (AccountCore's `ExternalIdentity.otherVerifiedEmails`). OAuthClient's identity carries one address (the primary
// verified one); at the callback of a sign-in flow this reads GitHub's address list (`emails_endpoint`, with the
// access token) once more and keeps the verified entries.
//
// Options: none of its own: the provider's `emails_endpoint` and the social HTTP client (`social.http_timeout`).
// Other presets vouch for one address and are not asked. Any failure (no answer, a non-2xx status, not a list) is an
// empty list: the flow then goes on with the one address, as before; at most 20 entries are read.
import Foundation
import OAuthClient

enum SocialVerifiedAddresses {
    /// The verified addresses GitHub lists for `accessToken`, besides `main`; [] for other providers or on failure.
    static func others(_ provider: OAuthProvider, http: (any HTTPClient)?, accessToken: String, main: String?) -> [String] {
        guard provider.configuration.kind == .github, let http, !provider.configuration.emailsEndpoint.isEmpty else { return [] }
        let request = HTTPRequest(url: provider.configuration.emailsEndpoint,
                                  headers: [HTTPRequest.Header("Accept", "application/json"),
                                            HTTPRequest.Header("Authorization", "Bearer \(accessToken)"),
                                            HTTPRequest.Header("User-Agent", "Frontdoor")])
        guard let answer = try? http.send(request), (200..<300).contains(answer.status),
              let list = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [[String: Any]] else { return [] }
        return list.prefix(20).compactMap { entry -> String? in
            guard entry["verified"] as? Bool == true, let email = entry["email"] as? String, !email.isEmpty,
                  email.lowercased() != main?.lowercased() else { return nil }
            return email
        }
    }
}
