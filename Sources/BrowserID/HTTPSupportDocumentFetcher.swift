// HTTPSupportDocumentFetcher.swift: fetches other identity providers' `/.well-known/browserid` with libcurl.
// Options: timeout (default 8 s, Persona's), maxBytes (default 64 KiB), cacheLifetime (default 10 min; only good
// documents are kept, at most 1000), httpHosts (tests only: issuer name → loopback address fetched over plain http
// with the name as Host), now (the clock). Redirects are not followed; the answer must be 200 and application/json.
import CCurl
import Foundation
import Locking

/// Support documents over HTTPS, cached.
public final class HTTPSupportDocumentFetcher: SupportDocumentSource {
    let timeout: TimeInterval
    let maxBytes: Int
    let cacheLifetime: TimeInterval
    let httpHosts: [String: String]
    let now: @Sendable () -> Date
    private let cache = Locked<[String: (document: SupportDocument, until: Date)]>([:])
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public init(timeout: TimeInterval = 8, maxBytes: Int = 65_536, cacheLifetime: TimeInterval = 600,
                httpHosts: [String: String] = [:], now: @escaping @Sendable () -> Date = { Date() }) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.cacheLifetime = cacheLifetime
        self.httpHosts = httpHosts.filter { Self.isLoopback($0.value) }
        self.now = now
    }

    public func supportDocument(for issuer: String) throws -> SupportDocument {
        let issuer = issuer.lowercased()
        let time = now()
        if let hit = cache.withLock({ $0[issuer] }), hit.until > time { return hit.document }
        let document = try fetch(issuer)
        cache.withLock { entries in
            if entries.count >= 1000 { entries = entries.filter { $0.value.until > time } }
            if entries.count < 1000 { entries[issuer] = (document, time.addingTimeInterval(cacheLifetime)) }
        }
        return document
    }

    private func fetch(_ issuer: String) throws -> SupportDocument {
        func failure(_ why: String) -> BrowserIDError {
            BrowserIDError(reason: "can't get public key for \(issuer): \(issuer) is not a browserid primary - \(why)")
        }
        guard !issuer.isEmpty, issuer.count <= 255, issuer.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }) else {
            throw BrowserIDError(reason: "can't get public key for \(issuer): malformed issuer")
        }
        _ = Self.globalInit
        guard let curl = curl_easy_init() else { throw failure("cannot start a request") }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        if let address = httpHosts[issuer] {
            fd_curl_setopt_string(curl, CURLOPT_URL, "http://\(address)/.well-known/browserid")
            headers = curl_slist_append(nil, "Host: \(issuer)")
            fd_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, headers)
        } else {
            fd_curl_setopt_string(curl, CURLOPT_URL, "https://\(issuer)/.well-known/browserid")
            fd_curl_setopt_long(curl, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTPS))
        }
        fd_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        fd_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        fd_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        fd_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(timeout * 1000))
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        let sink = Unmanaged.passRetained(ResponseSink(limit: maxBytes))
        defer { sink.release() }
        fd_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, sink.toOpaque())
        fd_curl_setopt_write(curl) { buffer, size, count, userdata in
            let sink = Unmanaged<ResponseSink>.fromOpaque(userdata!).takeUnretainedValue()
            let n = size * count
            guard sink.bytes.count + n <= sink.limit, let buffer else { sink.tooLarge = true; return 0 }
            buffer.withMemoryRebound(to: UInt8.self, capacity: n) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            return n
        }
        let code = curl_easy_perform(curl)
        if sink.takeUnretainedValue().tooLarge { throw failure("support document too large") }
        guard code == CURLE_OK else { throw failure(String(cString: curl_easy_strerror(code))) }
        var status = 0
        fd_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        if (300..<400).contains(status) { throw BrowserIDError(reason: "can't get public key for \(issuer): \(issuer) is not a browserid primary - redirection not supported for support documents") }
        guard status == 200 else { throw failure("non-200 response code to /.well-known/browserid") }
        var type: UnsafeMutablePointer<CChar>?
        fd_curl_getinfo_string(curl, CURLINFO_CONTENT_TYPE, &type)
        guard let type, String(cString: type).lowercased().hasPrefix("application/json") else {
            throw failure("non \"application/json\" response")
        }
        do { return try SupportDocument(data: sink.takeUnretainedValue().bytes) } catch let error as BrowserIDError {
            throw failure(error.reason)
        }
    }

    /// 127.x.x.x, localhost or [::1], with an optional port.
    static func isLoopback(_ address: String) -> Bool {
        let host = address.hasPrefix("[::1]") ? "[::1]" : String(address.prefix { $0 != ":" })
        return host == "localhost" || host == "[::1]" || host.hasPrefix("127.")
    }
}

/// The body curl writes, with its limit.
private final class ResponseSink {
    let limit: Int
    var bytes: [UInt8] = []
    var tooLarge = false
    init(limit: Int) { self.limit = limit }
}
