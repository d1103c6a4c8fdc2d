// SocialFlows.swift: the `state` of an authorization-code flow: begun when a person presses a provider's button,
// finished once at the callback, in the same browser, within 10 minutes.
//
// Options: lifetime (10 min). The browser's binding (32 random bytes in a cookie WebFront sets) is stored only as a
// digest; the PKCE verifier and the OpenID nonce are base64url(HMAC-SHA256(key: binding, "pkce:"/"nonce:" + state)),
// so nothing that would let a reader of the database finish a flow is stored. The state itself is kept as the SHA-256
// digest of its raw bytes (like session tokens), an invitation carried from the sign-up page is sealed (TokenVault,
// context "invite"), and a pending identity's token (purpose linkPending) is kept as its digest: `finish` hands that
// digest back as `SocialFlow.pendingDigest`, and `SocialSignIn.complete` finds the pending identity by it (the raw
// pending token cannot be recovered, so `SocialFlow.pendingToken` stays nil after `finish`).
// A state is unknown, used, expired, for another provider or from another browser: one refusal,
// `.refused("social_state_invalid")`. Finishing uses the flow up (a conditional UPDATE: of two callbacks with one state
// exactly one goes on); a wrong browser or provider does not use it up. Expired flows are removed whenever one begins.
import Crypto
import Encodings
import Foundation

/// What a flow is for.
public enum SocialPurpose: String, Sendable, CaseIterable {
    /// Sign in, or sign up when the identity is new (from the sign-in and sign-up pages).
    case signIn = "sign_in"
    /// Link the identity to the signed-in account (settings).
    case link
    /// Confirm it's you, for an account signed in through a provider (the re-authentication page).
    case reauthenticate
    /// Sign in with a provider already linked to the account that holds a pending identity's address, then link it.
    case linkPending = "link_pending"
}

/// A flow just begun: send `state`, the challenge of `codeVerifier` and `nonce` to the provider.
public struct SocialFlowStart: Sendable, Equatable {
    public let state: String
    public let codeVerifier: String
    public let nonce: String
}

/// A flow finished at the callback: what it was begun with.
public struct SocialFlow: Sendable, Equatable {
    public var provider: String
    public var purpose: SocialPurpose
    /// The signed-in account (link, reauthenticate).
    public var accountId: Int64?
    /// The checked return target given at the start ("" = none).
    public var returnTo: String
    /// The invitation the sign-up page carried ("" = none).
    public var invite: String
    public var rememberMe: Bool
    /// The pending identity's token (linkPending), when the caller has it; `finish` leaves it nil (see `pendingDigest`).
    public var pendingToken: String?
    /// The digest of the pending identity's token the flow was begun for (linkPending), as `finish` returns it.
    public var pendingDigest: Data?
    public var codeVerifier: String
    public var nonce: String

    public init(provider: String, purpose: SocialPurpose, accountId: Int64? = nil, returnTo: String = "", invite: String = "",
                rememberMe: Bool = false, pendingToken: String? = nil, pendingDigest: Data? = nil, codeVerifier: String = "",
                nonce: String = "") {
        self.provider = provider
        self.purpose = purpose
        self.accountId = accountId
        self.returnTo = returnTo
        self.invite = invite
        self.rememberMe = rememberMe
        self.pendingToken = pendingToken
        self.pendingDigest = pendingDigest
        self.codeVerifier = codeVerifier
        self.nonce = nonce
    }

    /// The pending identity this flow continues: the token's digest when the caller set the token, else the stored digest.
    var pendingKey: Data? {
        if let pendingToken { return SecretToken(encoded: pendingToken)?.digest }
        return pendingDigest
    }
}

/// Begins and finishes flows.
///
/// ```swift
/// let start = try flows.begin(provider: "corp", purpose: .signIn, accountId: nil, binding: cookieBytes)
/// // … redirect with start.state, PKCE.challenge(start.codeVerifier), start.nonce; at the callback:
/// let flow = try flows.finish(state: query["state"], provider: "corp", binding: cookieBytes)
/// ```
public struct SocialFlows: Sendable {
    let database: AppDatabase
    let vault: TokenVault
    let clock: any Clock
    let random: any RandomSource
    /// How long a flow may take (default 10 min).
    public var lifetime: TimeInterval = 600

    public init(database: AppDatabase, vault: TokenVault, clock: any Clock, random: any RandomSource) {
        self.database = database
        self.vault = vault
        self.clock = clock
        self.random = random
    }

    /// Stores a new flow for `provider`; `binding` is this browser's binding cookie (32 bytes).
    ///
    /// - Throws: `.refused("social_state_invalid")` without a binding, or for purposes link and reauthenticate without
    ///   `accountId`; `.refused("social_pending_invalid")` for linkPending without a well-formed `pendingToken`.
    public func begin(provider: String, purpose: SocialPurpose, accountId: Int64?, binding: [UInt8], returnTo: String = "",
                      invite: String = "", rememberMe: Bool = false, pendingToken: String? = nil) throws -> SocialFlowStart {
        guard !binding.isEmpty, !provider.isEmpty else { throw AccountError.refused("social_state_invalid") }
        if purpose == .link || purpose == .reauthenticate, accountId == nil { throw AccountError.refused("social_state_invalid") }
        var pendingDigest: Data?
        if purpose == .linkPending {
            guard let token = pendingToken.flatMap(SecretToken.init(encoded:)) else { throw AccountError.refused("social_pending_invalid") }
            pendingDigest = token.digest
        }
        let invite = invite.trimmingCharacters(in: .whitespacesAndNewlines)
        let sealedInvite = invite.isEmpty ? nil : try vault.seal(Data(invite.utf8), context: Self.inviteContext)
        let state = SecretToken(random: random)
        let now = clock.now()
        let flow = StoredSocialFlow(digest: state.digest, provider: provider, purpose: purpose.rawValue, accountId: accountId,
                                    bindingDigest: Self.digest(binding), returnTo: returnTo, sealedInvite: sealedInvite, rememberMe: rememberMe,
                                    pendingDigest: pendingDigest, createdAt: now, expiresAt: now + lifetime)
        try database.write { tx in try tx.insertSocialFlow(flow) }
        return SocialFlowStart(state: state.encoded, codeVerifier: Self.codeVerifier(state: state.encoded, binding: binding),
                               nonce: Self.nonce(state: state.encoded, binding: binding))
    }

    /// Uses up the flow `state` names, once; throws `.refused("social_state_invalid")` when it is unknown, used,
    /// expired, begun for another provider or by another browser.
    public func finish(state: String, provider: String, binding: [UInt8]) throws -> SocialFlow {
        guard let token = SecretToken(encoded: state), !binding.isEmpty else { throw AccountError.refused("social_state_invalid") }
        let now = clock.now()
        let stored = try database.write { tx -> StoredSocialFlow? in
            guard let stored = try tx.unusedSocialFlow(digest: token.digest, now: now),
                  Self.constantTimeEquals(stored.bindingDigest, Self.digest(binding)),
                  stored.provider == provider else { return nil }
            // One winner per state: the conditional UPDATE's changed-row count.
            return try tx.markSocialFlowUsed(digest: token.digest, now: now) ? stored : nil
        }
        guard let stored, let purpose = SocialPurpose(rawValue: stored.purpose) else { throw AccountError.refused("social_state_invalid") }
        // An invitation that no longer opens (the key file was replaced meanwhile) is as if none was carried.
        let invite = stored.sealedInvite.flatMap { try? vault.open($0, context: Self.inviteContext) }
        return SocialFlow(provider: provider, purpose: purpose, accountId: stored.accountId, returnTo: stored.returnTo,
                          invite: invite.map { String(decoding: $0, as: UTF8.self) } ?? "", rememberMe: stored.rememberMe,
                          pendingDigest: stored.pendingDigest, codeVerifier: Self.codeVerifier(state: state, binding: binding),
                          nonce: Self.nonce(state: state, binding: binding))
    }

    // MARK: Derivations

    /// The PKCE verifier of the flow `state` in the browser `binding`: 43 base64url characters (RFC 7636 allows 43–128).
    public static func codeVerifier(state: String, binding: [UInt8]) -> String { derive("pkce:" + state, binding: binding) }

    /// The OpenID nonce of the flow `state` in the browser `binding`.
    public static func nonce(state: String, binding: [UInt8]) -> String { derive("nonce:" + state, binding: binding) }

    private static func derive(_ label: String, binding: [UInt8]) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: SymmetricKey(data: binding)))
    }

    /// The associated data an invitation carried through a flow or a pending identity is sealed with.
    static let inviteContext = "invite"

    /// SHA-256 of a browser binding (or any secret bytes): the stored form.
    static func digest(_ bytes: [UInt8]) -> Data { Data(SHA256.hash(data: bytes)) }

    /// Compares two digests in time that depends only on their length.
    static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
