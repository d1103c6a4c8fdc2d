// HTTPSupportDocumentFetcher.swift: fetches other identity providers' `/.well-known/browserid` with libcurl, safely
// for a fetch any outsider can trigger through `/verify`. FetchRules decide the URL and the checked
// addresses first; libcurl is pinned to them (CURLOPT_RESOLVE) and its socket callback refuses any other address, no
// proxy from the environment is used, redirects are not followed, and the answer must be 200 and application/json
// within the size and time limits. Every failure gives the relying party one reason ("the support document could not
// be fetched"); what went wrong goes to `log` only, and the failure is remembered for `failureLifetime`.
// Anyone can make /verify fetch, so each fetch is bounded twice: by `timeout` and by the verification's deadline
// (the name lookup too, TimedLookup.swift), and at most `maxConcurrent` fetches run at once across the process:
// past that a verification is told FetchesBusy at once rather than queued, so slow identity providers hold at most
// that many FastCGI workers and the gate keeps the rest. A fetch that failed by running out of the verification's time
// (when that was less than `timeout`) is not remembered as a failure: an attacker's slow chain ahead of a good issuer
// must not make that issuer fail for everyone for a minute.
// Options: timeout (default 8 s, Persona's; also the connect limit), maxBytes (64 KiB), cacheLifetime (10 min; good
// documents, at most 1000), failureLifetime (1 min; failures, at most 1000), maxConcurrent (fetches under way at once,
// default 8; also the bound on name lookups still running), allowedHosts, onlyAllowed, httpHosts (tests only),
// resolver, log, now (the clock). FetchTarget.swift explains the last four.
import Curl
import Foundation
import IPAddresses
import Locking

/// Support documents over HTTPS, cached.
public final class HTTPSupportDocumentFetcher: SupportDocumentSource {
    let timeout: TimeInterval
    let maxBytes: Int
    let cacheLifetime: TimeInterval
    let failureLifetime: TimeInterval
    let maxConcurrent: Int
    let rules: FetchRules
    let log: @Sendable (String) -> Void
    let now: @Sendable () -> Date
    private let cache = Locked<[String: (document: SupportDocument, until: Date)]>([:])
    private let failures = Locked<[String: Date]>([:])
    private let underWay = Locked(0)
    private let lookups: TimedLookup

    public init(timeout: TimeInterval = 8, maxBytes: Int = 65_536, cacheLifetime: TimeInterval = 600, failureLifetime: TimeInterval = 60,
                maxConcurrent: Int = 8, allowedHosts: Set<String> = [], onlyAllowed: Bool = false, httpHosts: [String: String] = [:],
                resolver: any HostResolver = SystemResolver(),
                log: @escaping @Sendable (String) -> Void = { _ in }, now: @escaping @Sendable () -> Date = { Date() }) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.cacheLifetime = cacheLifetime
        self.failureLifetime = failureLifetime
        self.maxConcurrent = max(1, maxConcurrent)
        self.lookups = TimedLookup(limit: maxConcurrent)
        self.rules = FetchRules(allowedHosts: allowedHosts, onlyAllowed: onlyAllowed, httpHosts: httpHosts, resolver: resolver)
        self.log = log
        self.now = now
    }

    /// Whether `text` is an issuer a fetch could be made for: `host`, `host:port`, `[IPv6]` or `[IPv6]:port`.
    public static func isIssuer(_ text: String) -> Bool {
        FetchRules.split(text.lowercased()) != nil
    }

    public func supportDocument(for issuer: String) throws -> SupportDocument {
        try supportDocument(for: issuer, before: now().addingTimeInterval(timeout))
    }

    public func supportDocument(for issuer: String, before deadline: Date) throws -> SupportDocument {
        let issuer = issuer.lowercased()
        let time = now()
        if let hit = cache.withLock({ $0[issuer] }), hit.until > time { return hit.document }
        let failure = BrowserIDError(reason: "can't get public key for \(issuer): the support document could not be fetched")
        if let until = failures.withLock({ $0[issuer] }), until > time { throw failure }
        let limit = min(timeout, deadline.timeIntervalSince(time))
        guard limit > 0 else { throw failure }
        guard take() else {
            log("support document for \(issuer) not fetched: \(maxConcurrent) fetches under way (browserid.fetch_concurrency)")
            throw FetchesBusy()
        }
        defer { underWay.withLock { $0 -= 1 } }
        do {
            let target = try lookups.run(within: limit) { [rules] in try rules.target(for: issuer) }
            let document = try fetch(target, within: min(limit, deadline.timeIntervalSince(now())))
            Self.remember((document, time.addingTimeInterval(cacheLifetime)), for: issuer, in: cache, now: time) { $0.until }
            return document
        } catch let refusal as FetchRefusal {
            log("support document for \(issuer) not fetched: \(refusal.detail)")
            let cutShort = limit < timeout && now().timeIntervalSince(time) >= limit * 0.9
            if !cutShort { Self.remember(time.addingTimeInterval(failureLifetime), for: issuer, in: failures, now: time) { $0 } }
            throw failure
        }
    }

    /// Takes one of the `maxConcurrent` places for a fetch; false when all are taken.
    private func take() -> Bool {
        underWay.withLock { count in
            guard count < maxConcurrent else { return false }
            count += 1
            return true
        }
    }

    /// Keeps `value` for `key`, at most 1000 entries (expired ones are dropped first; when all are live, none is added).
    private static func remember<Value>(_ value: Value, for key: String, in store: Locked<[String: Value]>, now: Date,
                                        expiry: (Value) -> Date) {
        store.withLock { entries in
            if entries.count >= 1000 { entries = entries.filter { expiry($0.value) > now } }
            if entries.count < 1000 { entries[key] = value }
        }
    }

    private func fetch(_ target: FetchTarget, within seconds: TimeInterval) throws -> SupportDocument {
        guard seconds > 0.001 else { throw FetchRefusal(detail: "no time left for this verification") }
        var transfer = CurlTransfer(url: target.url, timeoutMilliseconds: Int(seconds * 1000))
        transfer.resolve = [target.pin]
        transfer.protocols = target.scheme == "https" ? "https" : "http"
        transfer.ignoresProxyEnvironment = true
        transfer.maxBodyBytes = maxBytes
        let guardian = ConnectGuard(addresses: target.addresses, port: target.port)
        transfer.allowConnect = { guardian.allows($0) }
        guard let outcome = transfer.perform() else { throw FetchRefusal(detail: "libcurl did not start") }
        if outcome.connectRefused { throw FetchRefusal(detail: "a connection to an unchecked address was refused") }
        if outcome.bodyTooLarge { throw FetchRefusal(detail: "larger than \(maxBytes) bytes") }
        guard outcome.succeeded else { throw FetchRefusal(detail: outcome.message) }
        guard outcome.status == 200 else { throw FetchRefusal(detail: "HTTP status \(outcome.status)") }
        guard let type = outcome.contentType, type.lowercased().hasPrefix("application/json") else {
            throw FetchRefusal(detail: "not application/json")
        }
        do { return try SupportDocument(data: outcome.body) } catch let error as BrowserIDError {
            throw FetchRefusal(detail: error.reason)
        }
    }
}

/// What libcurl may connect to: the checked addresses at the target's port.
struct ConnectGuard {
    let addresses: [IPAddress]
    let port: Int

    func allows(_ address: UnsafePointer<sockaddr>) -> Bool {
        guard let ip = IPAddress(socketAddress: address), addresses.contains(ip) else { return false }
        let rawPort: UInt16 = Int32(address.pointee.sa_family) == AF_INET
            ? address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
            : address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
        return Int(UInt16(bigEndian: rawPort)) == port
    }
}
