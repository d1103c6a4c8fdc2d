// SocialSignIn+SecondFactor.swift: a provider is one factor. An account with a second factor (SignInMethods) that a
// provider's identity signs in to gets no session yet but the challenge of its second step, the same one a right
// password gets (SecondFactorSignIn.begin: stored as a digest, bound to the browser, short-lived, used once);
// `SecondFactorSignIn.complete` then makes the session with two factors. The flows that ask it:
//   sign-in with a linked identity (browser, and the JSON API's provider token: an app's challenge has no binding)
//   linking a pending identity after the account's password (auth/link) or after a provider already linked to it
//     (link_pending): nothing is linked on one factor; the second step signs in, and the provider is linked from the
//     settings then (the pending identity expires unused)
// Sign-up through a provider makes a new account, which has no second factor yet. Options: none of its own.
import Foundation

extension SocialSignIn {
    /// The refusal carrying the second step's challenge when `accountId` has a second factor, written in the caller's
    /// transaction (which must commit: `settle` throws the refusal after it); nil when the account has none.
    func askSecondFactor(_ accountId: Int64, rememberMe: Bool, kind: SessionKind, binding: [UInt8]?,
                         in tx: Transaction) throws -> Settled? {
        guard try secondFactor.methods.hasSecondFactor(accountId: accountId, in: tx) else { return nil }
        let challenge = try secondFactor.begin(accountId: accountId, rememberMe: rememberMe, kind: kind, binding: binding, in: tx)
        return .failed(.secondFactorRequired(challenge: challenge))
    }
}
