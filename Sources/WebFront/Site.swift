// Site.swift: the site itself, built once at start-up and shared by the worker threads: its configuration, URL paths,
// templates, CSRF key, logger, allowed return hosts, metrics and page cache, and the sign-in features it offers
// (BrowserID, social providers, the OpenID Connect provider). The account operations are not here: Frontdoor gathers them once, gives each page
// the ones it uses where the routes are built (Routes.table), and gives each request its own (RequestContext.core).
import AccountCore
import Logging

/// What every page shares about the site. A class: every request holds it, and a struct this size cost ~10k
/// instructions of retains per request to copy.
public final class Site: Sendable {
    public let configuration: AppConfiguration
    public let paths: SitePaths
    public let renderer: PageRenderer
    public let csrf: CSRF
    public let logger: Logger
    /// The BrowserID identity provider and verifier (nil: those routes answer 404, e.g. in page tests).
    public let browserID: BrowserIDServices?
    /// The social sign-in providers (none: no buttons, and auth/* answers 404).
    public let social: SocialServices
    /// The OpenID Connect provider (nil: `oidc.enabled` is off, and every `oidc/…` route answers 404).
    public let openID: OpenIDServices?
    /// Request counts and latencies for `GET <base>/metrics`.
    public let metrics: Metrics
    /// Anonymous pages rendered once (see PageCache).
    let pageCache = PageCache()
    /// The `paths` every page's template gets (see PageLayout).
    let layoutPaths: [String: String]
    /// Hosts that return targets may name: `public_url`'s and `redirect.allowed_hosts`.
    public let allowedHosts: AllowedHosts

    public init(configuration: AppConfiguration, renderer: PageRenderer, csrf: CSRF, logger: Logger,
                browserID: BrowserIDServices? = nil, social: SocialServices = .none, openID: OpenIDServices? = nil) {
        self.configuration = configuration
        self.paths = SitePaths(base: configuration.basePath)
        self.renderer = renderer
        self.csrf = csrf
        self.logger = logger
        self.browserID = browserID
        self.social = social
        self.openID = openID
        self.metrics = Metrics()
        self.layoutPaths = PageLayout.paths(paths)
        self.allowedHosts = AllowedHosts(publicURL: configuration.publicURL, patterns: configuration.redirect.allowedHostList)
    }
}
