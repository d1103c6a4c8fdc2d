// BrowserIDServices.swift: the identity provider and the verifier, built once from the configuration.
// Options (config section `browserid`): issuer, certificate lifetimes, trusted_issuers, http_hosts (tests),
// verify_leeway, verify_deadline, verify_fetches, fetch_timeout, fetch_cache, fetch_failure_cache, fetch_concurrency,
// fetch_allowed_hosts, fetch_only_allowed_hosts, legacy_algorithms. The verifier keeps its deadline on `clock`. Frontdoor
// always trusts itself as a secondary for the addresses it certifies (it only certifies verified ones). A certificate
// whose chain held is remembered for fetch_cache too (never past its expiry): its verdict rests on the documents that
// are reused that long anyway, and the next assertion it backs then costs one signature check.
import AccountCore
import BrowserID
import Foundation
import Logging

/// What the BrowserID pages and `/verify` need.
public struct BrowserIDServices: Sendable {
    public let provider: IdentityProvider
    public let verifier: Verifier

    public init(provider: IdentityProvider, verifier: Verifier) {
        self.provider = provider
        self.verifier = verifier
    }

    /// Built from the configuration: keys in `database`, other providers' documents over HTTPS (or `http_hosts`).
    public static func make(configuration: AppConfiguration, database: AppDatabase, clock: any Clock, logger: Logger) -> BrowserIDServices {
        let paths = SitePaths(base: configuration.basePath)
        let bid = configuration.browserID
        let provider = IdentityProvider(
            issuer: configuration.effectiveIssuer, keys: SigningKeys(database: database, purpose: "browserid", clock: clock),
            authenticationPath: paths.path("browserid/authenticate"), provisioningPath: paths.path("browserid/provision"),
            certificateLifetime: bid.certificateLifetime, ephemeralLifetime: bid.ephemeralCertificateLifetime)
        // Never more than half the workers may wait on other providers, whatever fetch_concurrency says (a small
        // --workers included): the rest stay free for the gate.
        let fetchBound = min(bid.fetchConcurrency, max(1, configuration.fastcgi.workers / 2))
        let fetcher = HTTPSupportDocumentFetcher(
            timeout: bid.fetchTimeout, cacheLifetime: bid.fetchCache, failureLifetime: bid.fetchFailureCache, maxConcurrent: fetchBound,
            allowedHosts: Set(bid.fetchAllowedHostList), onlyAllowed: bid.fetchOnlyAllowedHosts, httpHosts: bid.httpHostMap ?? [:],
            log: { logger.notice("\($0)") }, now: { clock.now() })
        let policy = VerifierPolicy(trustedSecondaries: Set([provider.issuer] + bid.trustedIssuerList), leeway: bid.verifyLeeway,
                                    legacyAlgorithms: Set(bid.legacyAlgorithmList), maxFetches: bid.verifyFetches, deadline: bid.verifyDeadline,
                                    rememberCertificates: bid.fetchCache)
        let verifier = Verifier(source: FrontdoorSupportDocuments(provider: provider, others: fetcher), policy: policy,
                                clock: { clock.now() })
        return BrowserIDServices(provider: provider, verifier: verifier)
    }
}
