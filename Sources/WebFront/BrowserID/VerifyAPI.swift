// VerifyAPI.swift: POST <base>/verify, Persona's remote verification API, for relying parties' back ends.
// Fields (form-encoded or JSON, also read from the query string): assertion, audience.
// Answers 200 {"status":"okay","email","audience" (echoed exactly),"expires" (ms),"issuer"} or 200
// {"status":"failure","reason"}; 503 {"status":"failure","reason":"busy: …"} with Retry-After when too many support
// documents are being fetched at once (browserid.fetch_concurrency: answered at once, not queued, so a crowd of slow
// identity providers never holds the workers the gate needs); 400 when a field is missing, 415 for another content
// type, 405 for other methods.
import AccountCore
import BrowserID
import Foundation

/// Verifies a backed identity assertion for an audience.
struct VerifyAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let clock: any Clock
    init(_ core: AccountServices) { clock = core.clock }

    func submit(_ context: RequestContext) throws -> Response {
        guard let services = context.site.browserID else { throw HTTPError.notFound }
        var fields = context.query
        let type = (context.request.contentType ?? "").lowercased()
        if type.hasPrefix("application/x-www-form-urlencoded") {
            fields.merge(context.form) { _, body in body }
        } else if type.hasPrefix("application/json") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(context.request.body)) as? [String: Any] else {
                return .json(["status": "failure", "reason": "malformed JSON body"], status: 400)
            }
            for (name, value) in object { if let text = value as? String { fields[name] = text } }
        } else if !(type.isEmpty && context.request.body.isEmpty) {
            return .json(["status": "failure",
                          "reason": "Content-Type expected to be one of: application/x-www-form-urlencoded, application/json"],
                         status: 415)
        }
        guard let assertion = fields["assertion"], !assertion.isEmpty, let audience = fields["audience"], !audience.isEmpty else {
            return .json(["status": "failure", "reason": "need assertion and audience"], status: 400)
        }
        switch services.verifier.verify(assertion: assertion, audience: audience, now: clock.now()) {
        case let .okay(email, audience, expires, issuer):
            return .json(["status": "okay", "email": email, "audience": audience, "expires": expires, "issuer": issuer])
        case let .failure(reason):
            context.site.logger.info("browserid assertion refused", metadata: ["reason": "\(reason)"])
            return .json(["status": "failure", "reason": reason])
        case .busy:
            var response = Response.json(["status": "failure", "reason": VerificationResult.busyReason], status: 503)
            response.setHeader("Retry-After", "1")
            return response
        }
    }

    /// Any other method: 405 as JSON, naming POST.
    func wrongMethod(_ context: RequestContext) throws -> Response {
        var response = Response.json(["status": "failure", "reason": "use POST"], status: 405)
        response.setHeader("Allow", "POST")
        return response
    }
}

/// `GET /.well-known/browserid` (at the site root; nginx routes it here).
struct SupportDocumentPage: Sendable {
    static let path = "/.well-known/browserid"

    func show(_ context: RequestContext) throws -> Response {
        guard let services = context.site.browserID else { throw HTTPError.notFound }
        var response = Response(status: 200, headers: [(name: "Content-Type", value: "application/json")],
                                body: try services.provider.supportDocument().jsonData)
        response.setHeader("Cache-Control", "public, max-age=300")
        response.setHeader("Access-Control-Allow-Origin", "*")
        return response
    }
}
