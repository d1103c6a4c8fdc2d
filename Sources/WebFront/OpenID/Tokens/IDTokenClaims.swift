// IDTokenClaims.swift: what the provider says about a person: the ID token's claims (OpenID Connect Core 2, 3.1.3.6,
// 12.2) and the userinfo answer (5.3), from a grant and the account as it is now.
//
// Claims, by scope (a claim whose value is unknown is left out, never sent empty):
//   always   iss (the issuer, byte for byte the discovery document's), sub (OpenIDGrants.subject: stable, pairwise per
//            client when the client asks), aud (the client id), exp, iat, auth_time (when the person proved who they
//            are for the session the grant came from), acr (`urn:frontdoor:2fa` with two factors, else
//            `urn:frontdoor:1fa`), amr (`["mfa"]` with two factors; nothing guessed with one), sid (the Frontdoor
//            session's, the same for every client), azp (the client id), nonce (the authorization request's; not on a
//            refresh: the errata's reading of 12.2), at_hash (the left half of SHA-256 of the access token, base64url)
//   profile  name (the display name), preferred_username (the username)
//   email    email (the primary address), email_verified
//   groups   groups (names, sorted)
// The userinfo answer has `sub` and the scope's claims only. The account is read fresh for every token and every
// userinfo call (AccountFacts), so a changed address, name or group shows at the next refresh.
import AccountCore
import Crypto
import Encodings
import Foundation

/// The account's facts the claims tell, read now.
struct AccountFacts: Equatable, Sendable {
    var email: String
    var emailVerified: Bool
    var displayName: String
    var username: String
    var groups: [String]

    /// The account `accountID` as it is now; nil when it is gone.
    static func read(_ accountID: Int64, core: AccountServices) throws -> AccountFacts? {
        guard let primary = try core.addresses.all(of: accountID).first(where: \.isPrimary),
              let username = try core.usernames.username(of: accountID) else { return nil }
        let displayName: String
        do {
            displayName = try core.profile.values(of: accountID).displayName
        } catch AccountError.notFound {
            return nil
        }
        return AccountFacts(email: primary.address, emailVerified: primary.verifiedAt != nil, displayName: displayName,
                            username: username, groups: try core.groups.groups(of: accountID))
    }

    /// The person as a client's allow rule sees them (GateRule: a verified address, the groups).
    var person: GateRule.Person { GateRule.Person(verifiedEmail: emailVerified ? email : nil, groups: groups) }
}

/// Builds the ID token's and the userinfo answer's claims.
enum IDTokenClaims {
    static let oneFactor = "urn:frontdoor:1fa"
    static let twoFactors = "urn:frontdoor:2fa"

    /// The ID token's claims for `grant` with the access token's `scopes`, issued `now` with `accessToken` beside it.
    /// `refresh`: no nonce (12.2).
    static func idToken(grant: OpenIDGrant, scopes: [String], subject: String, issuer: String, facts: AccountFacts,
                        accessToken: String?, now: Date, lifetime: TimeInterval, refresh: Bool = false) -> [String: Any] {
        var claims = userinfo(scopes: scopes, subject: subject, facts: facts)
        claims["iss"] = issuer
        claims["aud"] = grant.clientID
        claims["azp"] = grant.clientID
        claims["iat"] = Int(now.timeIntervalSince1970)
        claims["exp"] = Int((now + lifetime).timeIntervalSince1970)
        claims["auth_time"] = Int(grant.authTime.timeIntervalSince1970)
        claims["acr"] = acr(factors: grant.factors)
        if let amr = amr(factors: grant.factors) { claims["amr"] = amr }
        claims["sid"] = grant.sid
        if !refresh, let nonce = grant.nonce, !nonce.isEmpty { claims["nonce"] = nonce }
        if let accessToken { claims["at_hash"] = atHash(accessToken) }
        return claims
    }

    /// `sub` and the claims `scopes` open (the userinfo answer; the ID token starts from it).
    static func userinfo(scopes: [String], subject: String, facts: AccountFacts) -> [String: Any] {
        var claims: [String: Any] = ["sub": subject]
        if scopes.contains("profile") {
            if !facts.displayName.isEmpty { claims["name"] = facts.displayName }
            if !facts.username.isEmpty { claims["preferred_username"] = facts.username }
        }
        if scopes.contains("email") {
            claims["email"] = facts.email
            claims["email_verified"] = facts.emailVerified
        }
        if scopes.contains("groups") { claims["groups"] = facts.groups }
        return claims
    }

    /// `urn:frontdoor:2fa` for a session proved with two factors, else `urn:frontdoor:1fa`.
    static func acr(factors: Int) -> String { factors >= 2 ? twoFactors : oneFactor }

    /// `["mfa"]` with two factors (RFC 8176); nil with one: which single method was used is not claimed.
    static func amr(factors: Int) -> [String]? { factors >= 2 ? ["mfa"] : nil }

    /// The left half of SHA-256 over the token's ASCII, base64url without padding (Core 3.1.3.6, for RS256).
    static func atHash(_ accessToken: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(accessToken.utf8))).prefix(16))
    }
}
