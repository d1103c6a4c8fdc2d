// Frontdoor.swift: the application's responder: routes a request, makes the CSRF check its route's kind needs (see
// RouteKind), and turns every error into a response here, once.
import AccountCore
import Foundation
import Logging

/// The one responder the server calls (its FastCGI side: Frontdoor+FastCGI.swift). Errors never escape as crashes.
public struct Frontdoor: Sendable {
    public let site: Site
    /// The account operations, gathered once: each page gets the ones it uses in `Routes.table`, each request its own.
    public let services: AccountServices
    /// The same, as every request holds them (one reference, not a copy: see SharedServices).
    private let shared: SharedServices
    let routes: [String: Route]
    private let rootRoutes: [String: Route]
    /// The security headers, form-action widened to the sign-in providers (see SecurityHeaders).
    private let securityHeaders: [(String, String)]
    /// With the OpenID provider on: the headers with its clients' origins in form-action (OpenIDFormActions).
    private let openIDFormActions: OpenIDFormActions?

    public init(site: Site, services: AccountServices) {
        self.site = site
        self.services = services
        self.shared = SharedServices(services)
        self.routes = Routes.table(core: services, providers: site.social.providers.map(\.configuration.id), api: site.configuration.api.enabled,
                                   openID: site.openID != nil)
        self.rootRoutes = Routes.rootTable()
        let images = SecurityHeaders.origin(of: site.configuration.logoURL).map { [$0] } ?? []
        self.securityHeaders = SecurityHeaders.values(formActions: site.social.formActionOrigins, images: images)
        self.openIDFormActions = site.openID.map { _ in
            OpenIDFormActions(clients: services.openIDClients, clock: services.clock, formActions: site.social.formActionOrigins, images: images)
        }
    }

    public func respond(to request: Request) -> Response {
        let started = ContinuousClock.now
        let (label, matched) = match(request.path)
        let context = RequestContext(request: request, site: site, core: shared,
                                     isAPI: label.hasPrefix("v1/") || (label == "unmatched" && isAPIPath(request.path)))
        // Every line logged while answering (whichever module writes it) names the request and its client (RequestLog).
        let requestId = RequestLog.requestId(passed: request.requestId) { RequestLog.madeId(services.random.bytes(12)) }
        return RequestLog.$current.withValue(RequestLog.Fields(requestId: requestId, client: context.clientAddress)) {
            answer(context, label: label, matched: matched, started: started)
        }
    }

    /// `respond`'s work, inside the request's log fields: route, turn errors into responses, add cookies and headers, count.
    private func answer(_ context: RequestContext, label: String, matched: Route?, started: ContinuousClock.Instant) -> Response {
        let request = context.request
        var response: Response
        do {
            response = try route(context, matched)
        } catch {
            if context.isAPI {
                response = apiErrorResponse(error, context: context)
            } else if matched?.kind == .api, label.hasPrefix("oidc/") {
                response = openIDErrorResponse(error, context: context)   // the OpenID provider's clients read RFC 6749 JSON
            } else {
                response = errorResponse(error, context: context)
            }
        }
        for cookie in context.cookies.outgoing { response.addHeader("Set-Cookie", cookie.headerValue) }
        SecurityHeaders.apply(to: &response, values: openIDFormActions?.values() ?? securityHeaders)
        if request.method == "HEAD" { response.body = [] }
        let elapsed = ContinuousClock.now - started
        site.metrics.observe(route: label, status: response.status,
                             seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        return response
    }

    /// The route a path names: its label for metrics (the table's key, or "unmatched") and the route.
    private func match(_ path: String) -> (String, Route?) {
        if let found = rootRoutes[path] { return (path, found) }
        if let route = site.paths.route(forRequestPath: path) {
            if let found = routes[route] { return (route.isEmpty ? "home" : route, found) }
            if ResidencesAPI.isVerifyRoute(route), let found = routes[Routes.residenceVerify] { return (Routes.residenceVerify, found) }
        }
        return ("unmatched", nil)
    }

    /// A path under `<base>/v1/`: its errors are JSON even when no route matches.
    private func isAPIPath(_ path: String) -> Bool {
        site.configuration.api.enabled && (site.paths.route(forRequestPath: path).map { $0 == "v1" || $0.hasPrefix("v1/") } ?? false)
    }

    /// The one place the JSON API's errors become responses: `APIError` as it says; HTTP errors (404, 405, 413) and
    /// anything unexpected (logged, 500) in the API's error shape.
    private func apiErrorResponse(_ error: Error, context: RequestContext) -> Response {
        if let api = error as? APIError { return api.response }
        let catalog = context.catalog
        var api: APIError
        if let known = (error as? HTTPError) ?? storageFailure(error, context: context) {
            let key = [404: "api_not_found", 405: "api_method_not_allowed", 413: "error_payload_too_large"][known.status] ?? known.messageKey
            api = APIError(status: known.status, message: catalog.text(key), headers: known.headers)
        } else {
            site.logger.error("request failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
            api = APIError(status: 500, message: catalog.text("api_internal"))
        }
        return api.response
    }

    /// An error of the OpenID provider's back channel (token, userinfo, introspection …) the endpoint did not answer
    /// itself, as its clients expect it: RFC 6749 JSON, storage trouble `temporarily_unavailable` with Retry-After.
    private func openIDErrorResponse(_ error: Error, context: RequestContext) -> Response {
        guard let known = (error as? HTTPError) ?? storageFailure(error, context: context) else {
            site.logger.error("request failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
            return OpenIDEndpointError(status: 500, code: "server_error").response
        }
        let code = known.status == 503 ? "temporarily_unavailable" : known.status >= 500 ? "server_error" : "invalid_request"
        return OpenIDEndpointError(status: known.status, code: code, description: context.catalog.text(known.messageKey),
                                   headers: known.headers).response
    }

    private func route(_ context: RequestContext, _ route: Route?) throws -> Response {
        if context.request.bodyTooLarge { throw HTTPError.payloadTooLarge }
        // NUL in a query or form (PostgreSQL keeps text up to it, SQLite all of it; JSON: APIContext): 400.
        let form = (context.request.contentType ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded")
        if FormData.holdsNUL(context.request.query.utf8) || form && FormData.holdsNUL(context.request.body) { throw HTTPError.badRequest }
        guard let route else { throw HTTPError.notFound }
        let method = context.request.method == "HEAD" ? "GET" : context.request.method
        guard let handler = route.methods[method] else { throw HTTPError.methodNotAllowed(route.methods.keys.sorted()) }
        if method != "GET" { try checkCSRF(context, kind: route.kind) }
        if route.kind == .page || route.kind == .form || route.kind == .sessionForm || route.kind == .admin {
            try context.requireTwoFactorsWhenRequired()
        }
        if route.kind == .admin { _ = try context.requireAdmin() }
        return try handler(context)
    }

    /// The one CSRF check (CSRF.swift), for a request other than GET: on every kind of route but the JSON API and the
    /// cross-site endpoints (their POST does only what their GET does), so a page or gate that were given a POST would
    /// be checked too; a session form only while a session lives.
    private func checkCSRF(_ context: RequestContext, kind: RouteKind) throws {
        switch kind {
        case .api, .crossSite: return
        case .sessionForm: if try context.session() != nil { try context.csrf.verify() }
        case .form, .page, .gate, .internal, .admin: try context.csrf.verify()
        }
    }

    /// The database could not take the request's changes (full, I/O error, read-only, lock timeout): nothing was
    /// written, so 503 with `error_unavailable` and a Retry-After, logged once as a warning. Nil for other errors.
    private func storageFailure(_ error: Error, context: RequestContext) -> HTTPError? {
        guard StorageFailure.isUnavailable(error) else { return nil }
        site.logger.warning("database cannot take changes", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
        context.treatUnreadSessionAsNone()   // unreachable (PostgreSQL down): the 503 page, not a plain-text fallback
        return .storageUnavailable
    }

    /// The one place errors become responses: HTTP errors show their message; anything else is logged and shown as 500.
    private func errorResponse(_ error: Error, context: RequestContext) -> Response {
        let httpError: HTTPError
        if let known = (error as? HTTPError) ?? storageFailure(error, context: context) {
            httpError = known
        } else {
            site.logger.error("request failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
            httpError = HTTPError(status: 500, messageKey: "error_internal")
        }
        if httpError.isRedirect {
            return Response(status: httpError.status, headers: httpError.headers.map { (name: $0.key, value: $0.value) })
        }
        let catalog = context.catalog
        var response: Response
        do {
            let title = catalog.text(httpError.status == 404 ? "error_not_found_title" : "error_title")
            response = try context.layout.page("error", ["error": ["title": title, "message": catalog.text(httpError.messageKey),
                                                                   "status_text": catalog.text("error_status", ["status": String(httpError.status)])]],
                                               status: httpError.status)
        } catch {
            site.logger.error("error page failed", metadata: ["error": "\(error)"])
            response = Response(status: httpError.status, contentType: "text/plain; charset=utf-8", text: catalog.text(httpError.messageKey) + "\n")
        }
        for (name, value) in httpError.headers { response.setHeader(name, value) }
        return response
    }
}
