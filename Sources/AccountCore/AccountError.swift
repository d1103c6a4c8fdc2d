// AccountError.swift: every error the account operations throw, one line each.
import AccountRules

/// What an account operation can refuse; WebFront and the JSON API switch over it exhaustively.
public enum AccountError: Error, Equatable, Sendable {
    /// The form's values break its rules; every problem is listed.
    case invalid(ValidationErrors)
    /// Sign-in failed: unknown address, wrong password or any other reason, deliberately not told apart.
    case invalidCredentials
    /// The password was right but the address is not confirmed yet (only said after a correct password).
    case unconfirmed
    /// A mailed link's token is unknown, used or expired.
    case invalidToken
    /// Sign-up is closed (`signup = "closed"`): accounts come from the operator only.
    case signUpClosed
    /// Sign-up needs an invitation (`signup = "invite"`) and none was given, or it is unknown, used or expired.
    case invitationRequired
    /// The operation needs the password entered recently (`session.reauthenticate_after`); ask it again first.
    case reauthenticationRequired
    /// The operation is not allowed in this state; the payload is the catalog key of the message people see
    /// (`address_last_verified`, `address_primary_remove`…).
    case refused(String)
    /// The account (or the address, session… it names) no longer exists.
    case notFound
    /// The password was right and the account has a second factor: no session yet; finish with
    /// `SecondFactorSignIn.complete(challenge:…)` (the challenge is short-lived and used once).
    case secondFactorRequired(challenge: String)
}
