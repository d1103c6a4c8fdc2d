// BackChannelLogout.swift: OpenID Connect Back-Channel Logout 1.0, the sending side: the background worker of `serve`
// that tells apps a Frontdoor session ended, so they end theirs without a browser.
//
// The core queues a delivery for each client with a `backchannel_logout_uri` in the transaction that ends a session
// (sign out, revoke, account deleted …), like the mail queue; this worker takes the due ones (services.openID's
// dueLogoutDeliveries), signs a logout token for each (JWT, header `typ: logout+jwt`; claims iss, aud = the client's
// id, iat, exp = iat + 2 min, jti, sid, sub (services.openID.subject: pairwise when the client asks), events
// {"http://schemas.openid.net/event/backchannel-logout": {}}, never a nonce) and POSTs `logout_token=<jwt>`
// form-urlencoded to the client's registered URI only (read again from the client at send time: a URI removed since
// is not called). 200 or 204 → delivered; anything else (another status, no answer, a timeout) → retried after
// OpenIDGrants.logoutRetryDelay (30 s doubled per attempt, at most an hour; the core gives up after its limit and
// audits it). Options: interval (between passes, default 5 s), timeout (per POST, default 5 s), batch (50).
// Clock and the HTTP poster are injected (tests pass a fixed clock and a recording poster). One worker per process.
import AccountCore
import Foundation
import Logging
import OAuthClient

/// Sends one logout token; the real one is CurlLogoutPoster.
protocol LogoutPoster: Sendable {
    /// POSTs `body` (application/x-www-form-urlencoded) to `url`; the HTTP status, or throws when no answer came.
    func post(_ body: String, to url: String) throws -> Int
}

/// The back-channel logout sender.
public final class BackChannelLogout: Sendable {
    static let event = "http://schemas.openid.net/event/backchannel-logout"
    let grants: OpenIDGrants
    let clients: OpenIDClients
    let openID: OpenIDServices
    let keys: OpenIDKeys
    let poster: any LogoutPoster
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    let batch: Int
    /// Seconds between passes.
    public let interval: TimeInterval

    init(grants: OpenIDGrants, clients: OpenIDClients, openID: OpenIDServices, keys: OpenIDKeys, poster: any LogoutPoster, clock: any Clock, random: any RandomSource,
         logger: Logger, interval: TimeInterval = 5, batch: Int = 50) {
        (self.grants, self.clients, self.openID, self.keys, self.poster) = (grants, clients, openID, keys, poster)
        (self.clock, self.random) = (clock, random)
        (self.logger, self.interval, self.batch) = (logger, interval, batch)
    }

    /// The worker of a running server: libcurl POSTs with `timeout`, the core's clock and randomness.
    public convenience init(core: AccountServices, openID: OpenIDServices, logger: Logger, timeout: TimeInterval = 5) {
        self.init(grants: core.openID, clients: core.openIDClients, openID: openID,
                  keys: openID.keys, poster: CurlLogoutPoster(timeout: timeout), clock: core.clock,
                  random: core.random, logger: logger)
    }

    /// Starts the sending thread: a pass now, then one every `interval`, until the process ends.
    public func start() {
        let thread = Thread { [self] in
            while true {
                deliverOnce()
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "frontdoor-backchannel-logout"
        thread.start()
    }

    /// One pass over the due deliveries; errors are logged, never thrown (the queue keeps them). Returns (sent, failed).
    @discardableResult
    public func deliverOnce() -> (sent: Int, failed: Int) {
        var sent = 0, failed = 0
        do {
            for delivery in try grants.dueLogoutDeliveries(limit: batch) {
                if try deliver(delivery) { sent += 1 } else { failed += 1 }
            }
        } catch {
            logger.error("back-channel logout pass failed", metadata: ["error": "\(error)"])
        }
        if sent > 0 { logger.info("back-channel logouts delivered", metadata: ["count": "\(sent)"]) }
        return (sent, failed)
    }

    /// Signs and sends one delivery, then records the outcome; true when the client took it.
    func deliver(_ delivery: OpenIDLogoutDelivery) throws -> Bool {
        guard let client = try clients.client(delivery.clientID), let uri = client.backchannelLogoutURI, !uri.isEmpty else {
            // The client is gone or no longer wants them: nothing to send, ever.
            try grants.logoutDelivered(delivery.id)
            return true
        }
        var status: Int?
        var problem = ""
        do {
            let token = try logoutToken(for: delivery, client: client)
            status = try poster.post("logout_token=" + FormData.encode(token), to: uri)
        } catch {
            problem = "\(error)"
        }
        if let status, status == 200 || status == 204 {
            try grants.logoutDelivered(delivery.id)
            return true
        }
        let delay = OpenIDGrants.logoutRetryDelay(after: delivery.attempts + 1)
        try grants.logoutFailed(delivery.id, retryAt: clock.now() + delay)
        logger.warning("back-channel logout failed; will retry", metadata: [
            "client": "\(client.id)", "status": "\(status.map(String.init) ?? "-")", "error": "\(problem)", "retry_in": "\(Int(delay))s"])
        return false
    }

    /// The signed logout token for `delivery`.
    func logoutToken(for delivery: OpenIDLogoutDelivery, client: OpenIDClient) throws -> String {
        let now = Int(clock.now().timeIntervalSince1970)
        let claims: [String: Any] = [
            "iss": openID.issuer, "aud": client.id, "iat": now, "exp": now + 120,
            "jti": random.bytes(16).map { String(format: "%02x", $0) }.joined(),
            "sid": delivery.sid, "sub": try grants.subject(accountID: delivery.accountID, client: client),
            "events": [Self.event: [String: Any]()],
        ]
        return try keys.sign(claims, type: "logout+jwt")
    }
}

/// POSTs over libcurl: https, or http to a loopback host only (OAuthClient's ProviderURL rule); no redirects followed.
struct CurlLogoutPoster: LogoutPoster {
    let timeout: TimeInterval

    func post(_ body: String, to url: String) throws -> Int {
        let client = CurlHTTPClient(timeout: timeout, maxBytes: 65_536)
        let request = HTTPRequest(method: "POST", url: url, headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
                                  body: Array(body.utf8))
        return try client.send(request).status
    }
}
