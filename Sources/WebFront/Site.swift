// Site.swift: what every page needs, gathered once at start-up and shared by the worker threads.
import AccountCore
import Logging

/// The dependencies of the web front: configuration, URL paths, account services, templates, CSRF, logger, BrowserID.
/// A class: every request holds it, and a struct this size cost ~10k instructions of retains per request to copy.
public final class Site: Sendable {
    public let configuration: AppConfiguration
    public let paths: SitePaths
    public let services: AccountServices
    public let renderer: PageRenderer
    public let csrf: CSRF
    public let logger: Logger
    /// The BrowserID identity provider and verifier (nil: those routes answer 404, e.g. in page tests).
    public let browserID: BrowserIDServices?
    /// The social sign-in providers (none: no buttons, and auth/* answers 404).
    public let social: SocialServices
    /// Request counts and latencies for `GET <base>/metrics`.
    public let metrics: Metrics
    /// Anonymous pages rendered once (see PageCache).
    let pageCache = PageCache()
    /// Hosts that return targets may name: `public_url`'s and `redirect.allowed_hosts`.
    public let allowedHosts: AllowedHosts

    public init(configuration: AppConfiguration, services: AccountServices, renderer: PageRenderer, csrf: CSRF, logger: Logger,
                browserID: BrowserIDServices? = nil, social: SocialServices = .none) {
        self.configuration = configuration
        self.paths = SitePaths(base: configuration.basePath)
        self.services = services
        self.renderer = renderer
        self.csrf = csrf
        self.logger = logger
        self.browserID = browserID
        self.social = social
        self.metrics = Metrics()
        self.allowedHosts = AllowedHosts(publicURL: configuration.publicURL, patterns: configuration.redirect.allowedHostList)
    }
}
