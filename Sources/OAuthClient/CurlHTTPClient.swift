// CurlHTTPClient.swift: HTTPClient over libcurl (one CurlTransfer of the Curl module per call), for the calls to providers.
// Options: timeout (whole request, default 10 s; also the connect timeout), maxBytes (largest answer body, default
// 1 MiB). Always: TLS peer and host verification on, redirects not followed (a 3xx is returned as is), only the
// URLs ProviderURL allows (https, or http to a loopback host), no signals (safe on worker threads).
// Errors: a refused URL or any curl failure → OAuthError.unreachable; an answer over maxBytes → invalidResponse.
import Curl
import Foundation

/// libcurl, through the same CurlTransfer as the BrowserID fetcher and SMTP.
public struct CurlHTTPClient: HTTPClient {
    public let timeout: TimeInterval
    public let maxBytes: Int

    public init(timeout: TimeInterval = 10, maxBytes: Int = 1 << 20) {
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        guard ProviderURL.isAllowed(request.url) else {
            throw OAuthError.unreachable("refused \(request.url): only https, or http to a loopback host")
        }
        let method = request.method.uppercased()
        guard !method.isEmpty, method.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw OAuthError.unreachable("refused method \(request.method)")
        }
        for header in request.headers {
            let text = header.name + header.value
            guard !header.name.isEmpty, !header.name.contains(":"), !text.contains(where: \.isNewline) else {
                throw OAuthError.unreachable("refused header \(header.name)")
            }
        }
        var transfer = CurlTransfer(url: request.url, timeoutMilliseconds: max(1, Int(timeout * 1000)))
        transfer.protocols = request.url.lowercased().hasPrefix("https://") ? "https" : "http"
        // An empty "Expect:" keeps curl from waiting for "100 Continue" before a body.
        transfer.headers = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        if method == "POST" || !request.body.isEmpty { transfer.post = request.body }
        if method != "GET" && method != "POST" { transfer.method = method }
        transfer.maxBodyBytes = maxBytes
        guard let outcome = transfer.perform() else { throw OAuthError.unreachable("cannot start a request") }
        if outcome.bodyTooLarge { throw OAuthError.invalidResponse("answer from \(request.url) larger than \(maxBytes) bytes") }
        guard outcome.succeeded else { throw OAuthError.unreachable("\(request.url): \(outcome.message)") }
        return HTTPResponse(status: outcome.status, contentType: outcome.contentType ?? "", body: outcome.body)
    }
}
