// SecondFactorSignIn+Reset.swift: the operator takes an account's second factors away (`frontdoor user 2fa reset`),
// for a person who lost their phone and their recovery codes.
//
// Options: none. One transaction removes every second factor the account has: its one-time codes with their recovery
// codes (audited `second_factor_removed` with the operator's client and detail "operator reset", and mailed, as when
// the person turns codes off) and its passkeys (each audited `passkey_removed` "operator reset: <name>", one mail). An
// account left without any way to sign in (it had only passkeys) gets one back by "forgot my password". The account's password and providers are untouched, and
// so are its sessions: a two-factor session keeps its factors (the operator vouches for the person, not for a device).
// A password reset never does this (PasswordReminder keeps the second factor and still asks for it).
import Foundation

extension SecondFactorSignIn {
    /// Removes every second factor of the account; returns those it had (empty: nothing to remove).
    ///
    /// - Throws: `AccountError.notFound` when there is no such account.
    @discardableResult
    public func reset(accountId: Int64, client: ClientInfo) throws -> [SignInMethod] {
        let removed = try database.write { tx -> [SignInMethod] in
            guard try tx.accountHasPassword(accountId) != nil else { throw AccountError.notFound }
            let had = try methods.secondFactors(accountId: accountId, in: tx)
            if let codes = methods.oneTimeCodes {
                try codes.remove(accountId: accountId, client: client, detail: "operator reset", in: tx)
            }
            try passkeys?.removeAll(accountId: accountId, client: client, detail: "operator reset", in: tx)
            return had
        }
        logger.notice("second factors reset by the operator", metadata: ["account": "\(accountId)", "removed": "\(removed.count)"])
        return removed
    }
}
