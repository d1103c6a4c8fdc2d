// Frontdoor.swift: the application's responder: routes a request, and turns every error into a response here, once.
import AccountCore
import FastCGI
import Foundation
import Logging

/// The one `Responder` the FastCGI server calls. Pages never see FastCGI, and errors never escape as crashes.
public struct Frontdoor: Responder {
    public let site: Site
    private let routes: [String: [String: Handler]]
    private let rootRoutes: [String: [String: Handler]]

    public init(site: Site) {
        self.site = site
        self.routes = Routes.table()
        self.rootRoutes = Routes.rootTable()
    }

    public func respond(to request: Request) -> Response {
        let context = RequestContext(request: request, site: site)
        var response: Response
        do {
            response = try route(context)
        } catch {
            response = errorResponse(error, context: context)
        }
        for cookie in context.outgoingCookies { response.addHeader("Set-Cookie", cookie.headerValue) }
        SecurityHeaders.apply(to: &response)
        if request.method == "HEAD" { response.body = [] }
        return response
    }

    private func route(_ context: RequestContext) throws -> Response {
        if context.request.bodyTooLarge { throw HTTPError.payloadTooLarge }
        let path = context.request.path
        guard let methods = rootRoutes[path] ?? site.paths.route(forRequestPath: path).flatMap({ routes[$0] }) else {
            throw HTTPError.notFound
        }
        let method = context.request.method == "HEAD" ? "GET" : context.request.method
        guard let handler = methods[method] else { throw HTTPError.methodNotAllowed(methods.keys.sorted()) }
        return try handler(context)
    }

    /// The one place errors become responses: HTTP errors show their message; anything else is logged and shown as 500.
    private func errorResponse(_ error: Error, context: RequestContext) -> Response {
        let httpError: HTTPError
        if let known = error as? HTTPError {
            httpError = known
        } else {
            site.logger.error("request failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
            httpError = HTTPError(status: 500, messageKey: "error_internal")
        }
        let catalog = site.renderer.catalog
        var response: Response
        do {
            response = try context.page("error", ["error": ["status": String(httpError.status), "message": catalog.text(httpError.messageKey)]],
                                        status: httpError.status)
        } catch {
            site.logger.error("error page failed", metadata: ["error": "\(error)"])
            response = Response(status: httpError.status, contentType: "text/plain; charset=utf-8", text: catalog.text(httpError.messageKey) + "\n")
        }
        for (name, value) in httpError.headers { response.setHeader(name, value) }
        return response
    }
}
