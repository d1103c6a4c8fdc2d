// SocialTestKit.swift: shortcuts for the social sign-in tests: identities, whole flows (begin → finish → complete),
// and looks at the rows they leave.
import Foundation
import Testing
@testable import AccountCore

/// This test browser's binding cookie, and another browser's.
let browser = [UInt8](repeating: 0xB1, count: 32)
let otherBrowser = [UInt8](repeating: 0xB2, count: 32)

/// An identity as a provider would report it.
func identity(_ subject: String = "sub-1", provider: String = "corp", email: String? = "Ann@Example.com", verified: Bool = true,
              name: String = "Ann Lee", tokens: String? = nil) -> ExternalIdentity {
    ExternalIdentity(provider: provider, subject: subject, email: email, emailVerified: verified, displayName: name,
                     tokens: tokens.map { Data($0.utf8) }, tokenExpiresAt: tokens == nil ? nil : Date(timeIntervalSince1970: 1_800_003_600))
}

/// The catalog key of an `AccountError.refused`, another error's description, or nil when nothing was thrown.
func refusal(_ body: () throws -> Void) -> String? {
    do {
        try body()
    } catch AccountError.refused(let key) {
        return key
    } catch {
        return "\(error)"
    }
    return nil
}

extension TestFixture {
    /// Begins a flow in `binding`'s browser, finishes it at the callback and completes it with `identity`.
    /// `flowAccount` is the account the flow is begun for (default: the session's).
    func social(_ identity: ExternalIdentity, purpose: SocialPurpose = .signIn, session: SessionInfo? = nil, flowAccount: Int64? = nil,
                invite: String = "", rememberMe: Bool = false, pendingToken: String? = nil, binding: [UInt8] = browser,
                previousToken: String? = nil, browserAccounts: [Int64] = [],
                client: ClientInfo = ClientInfo(userAgent: "test", remoteAddress: "192.0.2.9")) throws -> SocialOutcome {
        let start = try services.socialFlows.begin(provider: identity.provider, purpose: purpose, accountId: flowAccount ?? session?.accountId,
                                                   binding: binding, returnTo: "/back", invite: invite, rememberMe: rememberMe,
                                                   pendingToken: pendingToken)
        let flow = try services.socialFlows.finish(state: start.state, provider: identity.provider, binding: binding)
        return try services.social.complete(identity, flow: flow, binding: binding, session: session, client: client,
                                            here: previousToken.map { BrowserTokens(active: $0) }, browserAccounts: browserAccounts)
    }

    /// A sign-in flow that must end signed in.
    func socialSignIn(_ identity: ExternalIdentity, invite: String = "", rememberMe: Bool = false,
                      previousToken: String? = nil) throws -> (grant: SessionGrant, created: Bool) {
        let outcome = try social(identity, invite: invite, rememberMe: rememberMe, previousToken: previousToken)
        guard case .signedIn(let grant, let created) = outcome else { throw FixtureError("expected .signedIn, got \(outcome)") }
        return (grant, created)
    }

    /// A sign-in flow that must end with a pending identity (`.needsEmail` or `.needsLink`): its token.
    func socialPending(_ identity: ExternalIdentity, invite: String = "", binding: [UInt8] = browser) throws -> String {
        switch try social(identity, invite: invite, binding: binding) {
        case .needsEmail(let token), .needsLink(let token): return token
        case let other: throw FixtureError("expected a pending identity, got \(other)")
        }
    }

    /// Rows of `event` in the audit trail, oldest first.
    func audits(_ event: AuditEvent) throws -> [SQLRow] {
        try database.read { tx in try tx.rows("SELECT * FROM audit WHERE event = ? ORDER BY id", [event.rawValue]) }
    }

    /// Kinds of the mails queued to `address`, oldest first.
    func mailKinds(to address: String) throws -> [String] {
        try database.read { tx in
            try tx.values(String.self, "SELECT kind FROM mailQueue WHERE recipientKey = ? ORDER BY id", [address.lowercased()])
        }
    }

    /// (provider, subject, accountId) of every linked identity.
    func linkedIdentities() throws -> [String] {
        try database.read { tx in
            try tx.rows("SELECT provider, subject, accountId FROM socialIdentity ORDER BY id").map { row in
                "\(row["provider"] as String)/\(row["subject"] as String)→\(row["accountId"] as Int64)"
            }
        }
    }

    /// The account's stored password hash.
    func passwordHash(_ accountId: Int64) throws -> String? {
        try database.read { tx in try tx.value(String.self, "SELECT passwordHash FROM account WHERE id = ?", [accountId]) }
    }
}
