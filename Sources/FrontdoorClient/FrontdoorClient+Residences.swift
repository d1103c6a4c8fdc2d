// FrontdoorClient+Residences.swift: email residences, IIResidenceStore's flow: sign a device in without a password.
//
// Options: from Configuration `extraParameters[.registerResidence]` / `[.verifyResidence]` (added to the top-level
// body). Steps: `registerResidence(email:)` asks the server (POST v1/residences), which mails the address a link; the
// person opens it and allows the device; `verifyResidence(email:)` (POST v1/residences/{id}/verify) answers false
// until then, and true once, when it collects the API token; `useResidence(email:)` signs the client in with it.
// Local state, in the store under "residence:<lowercased email>" with `url` = this server:
//   pending   secret = the residence's secret, extra = ["id": id, "state": "pending"]
//   verified  secret = the API token,          extra = ["state": "verified"]
// A residence the server no longer knows (404: expired, collected, unknown) or refused (403) is forgotten locally.
// Email addresses are compared case-insensitively; the server URL exactly. The key does not name the server: give
// each server its own store.
import AccountRules
import Foundation

extension FrontdoorClient {
    /// Asks the server to mail `email` a link that allows this device, and remembers the request. A new request
    /// replaces an earlier one for the same address. `.throttled` when one was mailed within the server's
    /// `mail.throttle`.
    public func registerResidence(email: String) async throws {
        try check(["email": email], with: signUpRules, only: ["email"])
        let address = Self.normalized(email)
        let answer = try await send("POST", "residences", body: body(.registerResidence, root: nil, ["email": address]))
        let residence = try Wire.decode(Wire.Residence.self, from: answer.body)
        try store.set(Credentials(username: address, secret: residence.secret, url: configuration.serverURL,
                                  extra: ["id": residence.id, "state": "pending"]),
                      forKey: Self.residenceKey(address))
    }

    /// Whether the person allowed this device: false while the link waits, true once the token is collected (and
    /// from then on, locally). `.notFound` when no residence was registered for `email` here, or the server no
    /// longer knows it; `.forbidden` when it was refused. Either way the local record is then gone. For an account with
    /// a second factor, once allowed: `.secondFactorRequired(challenge)` (the record is gone too); `completeSignIn(_:code:)`
    /// then signs in.
    @discardableResult
    public func verifyResidence(email: String) async throws -> Bool {
        let key = Self.residenceKey(Self.normalized(email))
        guard let residence = try residenceRecord(for: email) else {
            throw FrontdoorClientError.notFound(message: "No residence was registered for \(email).")
        }
        if residence.extra["state"] == "verified" { return true }
        guard let id = residence.extra["id"],
              let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) else {
            throw FrontdoorClientError.invalidResponse
        }
        let answer: HTTPAnswer
        do {
            answer = try await send("POST", "residences/\(escaped)/verify",
                                    body: body(.verifyResidence, root: nil, ["secret": residence.secret]))
        } catch FrontdoorClientError.pending {
            return false
        } catch let error as FrontdoorClientError {
            switch error {
            // Used up on the server: an account with a second factor answers its challenge instead of a token.
            case .notFound, .forbidden, .secondFactorRequired: try store.remove(forKey: key)
            default: break
            }
            throw error
        }
        let collected = try Wire.decode(Wire.CollectedResidence.self, from: answer.body)
        guard collected.state == "verified" else { throw FrontdoorClientError.invalidResponse }
        try store.set(Credentials(username: residence.username, secret: collected.token, url: configuration.serverURL,
                                  extra: ["state": "verified"]),
                      forKey: key)
        return true
    }

    /// Signs the client in with the verified residence of `email` (it becomes the default credentials, with the
    /// account's id and primary address) and returns the account. `.notFound` when `email` has no verified residence here; a token the
    /// server refuses leaves the earlier credentials in place.
    @discardableResult
    public func useResidence(email: String) async throws -> User {
        guard let token = try residenceToken(for: email) else {
            throw FrontdoorClientError.notFound(message: "No verified residence for \(email).")
        }
        let previous = try store.defaultCredentials()
        let address = Self.normalized(email)
        try store.setDefaultCredentials(Credentials(username: address, secret: token, url: configuration.serverURL))
        do {
            var user = try await reload()
            user.authenticationToken = token
            try remember(user, token: token)
            return user
        } catch {
            if let previous { try store.setDefaultCredentials(previous) } else { try store.removeDefaultCredentials() }
            throw error
        }
    }

    // MARK: - Local state only

    /// Whether a residence was registered for `email` on this server (pending or verified).
    public func isEmailRegistered(_ email: String) throws -> Bool { try residenceRecord(for: email) != nil }

    /// Whether the residence of `email` was verified and its token collected.
    public func isEmailVerified(_ email: String) throws -> Bool { try residenceRecord(for: email)?.extra["state"] == "verified" }

    /// The API token collected for `email`, or nil when its residence is not verified (or not registered).
    public func residenceToken(for email: String) throws -> String? {
        guard let record = try residenceRecord(for: email), record.extra["state"] == "verified" else { return nil }
        return record.secret
    }

    /// Every address with a residence on this server, pending or verified, sorted.
    public func allEmails() throws -> [String] {
        try store.keys().filter { $0.hasPrefix(Self.residencePrefix) }.compactMap { key in
            guard let record = try store.credentials(forKey: key), record.url == configuration.serverURL else { return nil }
            return record.username
        }.sorted()
    }

    /// Forgets every residence of this server (the default credentials stay).
    public func removeAllResidences() throws {
        for key in try store.keys() where key.hasPrefix(Self.residencePrefix) {
            if try store.credentials(forKey: key)?.url == configuration.serverURL { try store.remove(forKey: key) }
        }
    }

    // MARK: - Helpers

    static let residencePrefix = "residence:"

    static func normalized(_ email: String) -> String { email.trimmingCharacters(in: .whitespaces).lowercased() }

    static func residenceKey(_ address: String) -> String { residencePrefix + address }

    private func residenceRecord(for email: String) throws -> Credentials? {
        guard let record = try store.credentials(forKey: Self.residenceKey(Self.normalized(email))),
              record.url == configuration.serverURL else { return nil }
        return record
    }
}
