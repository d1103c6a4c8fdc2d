// OpenIDGrants+Device.swift: the device authorization grant (RFC 8628): a device without a browser shows a user code,
// the person types it on `<base>/device`, approves or denies, and the device polls the token endpoint.
//
// Options: `device_code_lifetime`, `device_poll_interval` (OpenIDPolicy).
// Rules: the user code is 8 letters from BCDFGHJKLMNPQRSTVWXZ (no vowels, so no words; §6.1), shown `XXXX-XXXX` and
// compared without case and without the dash; only its SHA-256 is stored. A device is approved or denied once
// (conditional UPDATE of a pending row). Each poll records its time on the row: a poll sooner than the interval after
// the last one answers slow_down and adds 5 s to the interval (§3.5); the answers that change the row (pending,
// slow_down) commit and then throw (CommittedFailure). Tokens are issued once (conditional UPDATE approved → issued);
// the grant belongs to the approving browser's session, so signing out there ends the device's tokens too.
// Guessing (§5.1): 20^8 codes, few alive at once, and a wrong one typed on the page counts as a failure of the client
// address, as a failed sign-in does: the sign-in lockout's address block (`lockout.address_max_failures` in
// `lockout.address_window`) then hides every code from that address, a right one too, for `lockout.address_duration`.
import Crypto
import Foundation

extension OpenIDGrants {
    /// The alphabet of user codes.
    public static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// A new device authorization for `client`.
    public func startDevice(client: OpenIDClient, scopes: [String]) throws -> OpenIDDeviceStart {
        let now = clock.now()
        let deviceCode = SecretToken(random: random)
        for _ in 0..<5 {
            let letters = drawUserCode()
            let stored: Bool = try database.write { tx in
                do {
                    try tx.savepoint {
                        try tx.insertOpenIDDevice(digest: deviceCode.digest, userCodeDigest: Self.userCodeDigest(letters), clientId: client.id,
                                                  scopes: scopes, interval: policy.devicePollInterval, now: now,
                                                  expiresAt: now + policy.deviceCodeLifetime)
                    }
                    return true
                } catch StorageError.uniqueViolation {
                    return false   // another live device drew the same user code: draw again
                }
            }
            if stored {
                return OpenIDDeviceStart(deviceCode: deviceCode.encoded, userCode: "\(letters.prefix(4))-\(letters.suffix(4))",
                                         expiresIn: Int(policy.deviceCodeLifetime), interval: Int(policy.devicePollInterval))
            }
        }
        throw StorageError.failed("no free user code after 5 draws")
    }

    /// 8 letters of the alphabet, each uniform (bytes of 240 and above are drawn again: 240 = 12 × 20).
    private func drawUserCode() -> String {
        var letters = ""
        while letters.count < 8 {
            for byte in random.bytes(16) where byte < 240 && letters.count < 8 {
                letters.append(Self.userCodeAlphabet[Int(byte) % Self.userCodeAlphabet.count])
            }
        }
        return letters
    }

    /// The user code as typed (any case, with or without the dash or spaces) → its stored digest; nil when it cannot be one.
    static func userCodeDigest(typed: String) -> Data? {
        let letters = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == 8, letters.allSatisfy({ userCodeAlphabet.contains($0) }) else { return nil }
        return userCodeDigest(letters)
    }

    static func userCodeDigest(_ letters: String) -> Data {
        Data(SHA256.hash(data: Data("device:\(letters)".utf8)))
    }

    /// The pending, unexpired device with this user code (for the page), or nil.
    /// `client`: who typed it; a wrong code counts against its address, and a blocked address finds nothing.
    public func pendingDevice(userCode: String, client: ClientInfo = ClientInfo()) throws -> OpenIDPendingDevice? {
        let now = clock.now().timeIntervalSince1970
        let found = try database.read { tx -> OpenIDPendingDevice?? in
            if let lockout, try lockout.isBlocked(client, in: tx) { return .some(nil) }
            guard let digest = Self.userCodeDigest(typed: userCode), let device = try tx.openIDDevice("userCodeDigest", digest),
                  device.state == "pending", device.expiresAt > now else { return nil }
            return OpenIDPendingDevice(clientID: device.clientId, scopes: device.scopes)
        }
        if let found { return found }   // found, or the address is blocked (nothing more to count)
        guard let lockout else { return nil }
        let outcome = try database.write { tx in
            try lockout.recordFailure(accountId: nil, email: "", client: client, reason: "unknown device code", in: tx)
        }
        lockout.log(outcome, client: client)
        return nil
    }

    /// The person said yes; false when the code is not pending (unknown, expired, already answered).
    public func approveDevice(userCode: String, authentication: OpenIDAuthentication, client: ClientInfo = ClientInfo()) throws -> Bool {
        try settleDevice(userCode: userCode, approvedBy: authentication, client: client)
    }

    /// The person said no; false when the code is not pending.
    public func denyDevice(userCode: String, accountID: Int64? = nil, client: ClientInfo = ClientInfo()) throws -> Bool {
        try settleDevice(userCode: userCode, approvedBy: nil, accountID: accountID, client: client)
    }

    private func settleDevice(userCode: String, approvedBy who: OpenIDAuthentication?, accountID: Int64? = nil, client: ClientInfo) throws -> Bool {
        guard let digest = Self.userCodeDigest(typed: userCode) else { return false }
        let now = clock.now()
        return try database.write { tx in
            guard let device = try tx.openIDDevice("userCodeDigest", digest),
                  try tx.settleOpenIDDevice(userCodeDigest: digest, approvedBy: who, now: now) else { return false }
            try audit.record(who == nil ? .openIDDeviceDenied : .openIDDeviceApproved, accountId: who?.accountID ?? accountID, email: nil,
                             client: client, detail: "client \(device.clientId)", in: tx)
            return true
        }
    }

    /// The device's poll (token endpoint, grant type device_code): tokens once approved, else the RFC 8628 answer as
    /// `OpenIDError`: authorizationPending, slowDown, accessDenied, expiredToken, invalidGrant (unknown, another
    /// client's, tokens already issued).
    public func pollDevice(_ deviceCode: String, client: OpenIDClient) throws -> OpenIDIssued {
        guard let secret = SecretToken(encoded: deviceCode) else { throw OpenIDError.invalidGrant("malformed device code") }
        let now = clock.now()
        return try database.write { tx in
            guard let device = try tx.openIDDevice("digest", secret.digest) else { throw OpenIDError.invalidGrant("unknown device code") }
            guard device.clientId == client.id else { throw OpenIDError.invalidGrant("another client's device code") }
            guard device.expiresAt > now.timeIntervalSince1970 else { throw OpenIDError.expiredToken }
            switch device.state {
            case "denied": throw OpenIDError.accessDenied
            case "issued": throw OpenIDError.invalidGrant("tokens already issued")
            case "pending":
                let tooSoon = device.lastPolledAt.map { now.timeIntervalSince1970 - $0 < device.pollInterval } ?? false
                try tx.recordOpenIDDevicePoll(digest: secret.digest, at: now, interval: device.pollInterval + (tooSoon ? 5 : 0))
                throw CommittedFailure(tooSoon ? OpenIDError.slowDown : OpenIDError.authorizationPending)
            default:
                break
            }
            guard let accountId = device.accountId, let sessionDigest = device.sessionDigest, let authTime = device.authTime else {
                throw OpenIDError.invalidGrant("device row incomplete")
            }
            guard try tx.openIDSessionIsLive(digest: sessionDigest, now: now, idleSince: now - sessionIdleTimeout, holding: true) else {
                throw OpenIDError.invalidGrant("the approving session ended")
            }
            let who = OpenIDAuthentication(accountID: accountId, sessionDigest: sessionDigest, authTime: Date(timeIntervalSince1970: authTime),
                                           factors: device.factors ?? 1)
            let grant = try newGrant(client: client, scopes: device.scopes, nonce: nil, who: who, now: now, in: tx)
            guard try tx.issueOpenIDDevice(digest: secret.digest, grantId: grant.id) else {
                throw OpenIDError.invalidGrant("tokens already issued")
            }
            return try issueTokens(grant: grant, scopes: grant.scopes, sessionDigest: sessionDigest, now: now, in: tx)
        }
    }
}
