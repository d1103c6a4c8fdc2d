// CurlHTTPClient.swift: HTTPClient over libcurl (the CCurl module), for the calls to providers.
// Options: timeout (whole request, default 10 s; also the connect timeout), maxBytes (largest answer body, default
// 1 MiB). Always: TLS peer and host verification on, redirects not followed (a 3xx is returned as is), only the
// URLs ProviderURL allows (https, or http to a loopback host), no signals (safe on worker threads).
// Errors: a refused URL or any curl failure → OAuthError.unreachable; an answer over maxBytes → invalidResponse.
import CCurl
import Foundation

/// libcurl, as the BrowserID fetcher and SMTP use it.
public struct CurlHTTPClient: HTTPClient {
    public let timeout: TimeInterval
    public let maxBytes: Int
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

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
        _ = Self.globalInit
        guard let curl = curl_easy_init() else { throw OAuthError.unreachable("cannot start a request") }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        // An empty "Expect:" keeps curl from waiting for "100 Continue" before a body.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headers = curl_slist_append(headers, line)
        }
        fd_curl_setopt_string(curl, CURLOPT_URL, request.url)
        fd_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, request.url.lowercased().hasPrefix("https://") ? "https" : "http")
        fd_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, headers)
        fd_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        fd_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        fd_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000)))
        fd_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(timeout * 1000)))
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        if method == "POST" || !request.body.isEmpty {
            fd_curl_setopt_long(curl, CURLOPT_POST, 1)
            fd_curl_setopt_long(curl, CURLOPT_POSTFIELDSIZE, request.body.count)
            // COPYPOSTFIELDS copies `POSTFIELDSIZE` bytes now, so the buffer need not outlive this call.
            var body = request.body
            body.append(0)
            body.withUnsafeMutableBytes { _ = fd_curl_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        }
        if method != "GET" && method != "POST" { fd_curl_setopt_string(curl, CURLOPT_CUSTOMREQUEST, method) }
        let sink = Unmanaged.passRetained(AnswerSink(limit: maxBytes))
        defer { sink.release() }
        fd_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, sink.toOpaque())
        fd_curl_setopt_write(curl) { buffer, size, count, userdata in
            guard let userdata else { return 0 }
            let sink = Unmanaged<AnswerSink>.fromOpaque(userdata).takeUnretainedValue()
            let n = size * count
            guard sink.bytes.count + n <= sink.limit, let buffer else { sink.tooLarge = true; return 0 }
            buffer.withMemoryRebound(to: UInt8.self, capacity: n) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            return n
        }
        let code = curl_easy_perform(curl)
        let answer = sink.takeUnretainedValue()
        if answer.tooLarge { throw OAuthError.invalidResponse("answer from \(request.url) larger than \(maxBytes) bytes") }
        guard code == CURLE_OK else {
            throw OAuthError.unreachable("\(request.url): \(String(cString: curl_easy_strerror(code)))")
        }
        var status = 0
        fd_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        var type: UnsafeMutablePointer<CChar>?
        fd_curl_getinfo_string(curl, CURLINFO_CONTENT_TYPE, &type)
        return HTTPResponse(status: status, contentType: type.map { String(cString: $0) } ?? "", body: answer.bytes)
    }
}

/// The body curl writes, with its limit (used by one request on one thread).
private final class AnswerSink {
    let limit: Int
    var bytes: [UInt8] = []
    var tooLarge = false
    init(limit: Int) { self.limit = limit }
}
