// SocialFlows.swift: the `state` of an authorization-code flow: begun when a person presses a provider's button,
// finished once at the callback, in the same browser, within 10 minutes.
//
// Options: lifetime (10 min). The browser's binding (32 random bytes in a cookie WebFront sets) is stored only as a
// digest; the PKCE verifier and the OpenID nonce are HMAC-SHA256(binding, "pkce:"/"nonce:" + state), so nothing
// that would let a reader of the database finish a flow is stored. A state is unknown, used, expired, for another
// provider or from another browser: one refusal, `.refused("social_state_invalid")`.
// (Foundation stub: helper C implements it; the public shape below is the contract.)
import Foundation
import GRDB

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
    /// The pending identity's token (linkPending).
    public var pendingToken: String?
    public var codeVerifier: String
    public var nonce: String

    public init(provider: String, purpose: SocialPurpose, accountId: Int64? = nil, returnTo: String = "", invite: String = "",
                rememberMe: Bool = false, pendingToken: String? = nil, codeVerifier: String = "", nonce: String = "") {
        self.provider = provider
        self.purpose = purpose
        self.accountId = accountId
        self.returnTo = returnTo
        self.invite = invite
        self.rememberMe = rememberMe
        self.pendingToken = pendingToken
        self.codeVerifier = codeVerifier
        self.nonce = nonce
    }
}

/// Begins and finishes flows.
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
    public func begin(provider: String, purpose: SocialPurpose, accountId: Int64?, binding: [UInt8], returnTo: String = "",
                      invite: String = "", rememberMe: Bool = false, pendingToken: String? = nil) throws -> SocialFlowStart {
        throw AccountError.refused("social_state_invalid")
    }

    /// Uses up the flow `state` names, once; throws `.refused("social_state_invalid")` when it is unknown, used,
    /// expired, begun for another provider or by another browser.
    public func finish(state: String, provider: String, binding: [UInt8]) throws -> SocialFlow {
        throw AccountError.refused("social_state_invalid")
    }
}
