// CurlTransfer.swift: the project's one libcurl easy handle: an SMTP upload (AccountCore's SMTPTransport) and an HTTP(S)
// GET or POST (BrowserID's support-document fetcher, OAuthClient's CurlHTTPClient) are each one `perform()` of it.
//
// Options (fields of CurlTransfer): url, protocols, timeoutMilliseconds (connect and whole transfer), caFile,
// resolve (host:port:address pins), allowConnect (a check of every address before its socket is opened),
// ignoresProxyEnvironment, headers, post, method, maxBodyBytes, mail (sender, recipients), upload, requireTLS,
// credentials. Always: TLS peer and host-name verification on, redirects not followed, no signals (safe on worker
// threads), and curl_global_init once per process before the first handle.
// The outcome carries curl's code, its text (curl_easy_strerror), its detail (the error buffer), the status, the
// content type and the body, which is cut at maxBodyBytes (`bodyTooLarge`).
import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One libcurl transfer described as data; `perform()` runs it on the calling thread.
///
/// ```swift
/// var transfer = CurlTransfer(url: "https://idp.example/.well-known/browserid", timeoutMilliseconds: 5000)
/// transfer.maxBodyBytes = 65_536
/// guard let outcome = transfer.perform() else { /* libcurl could not make a handle */ }
/// if outcome.succeeded, outcome.status == 200 { use(outcome.body) }
/// ```
public struct CurlTransfer {
    /// The sender and recipients of an SMTP transfer (written `<address>` on the wire).
    public struct Mail {
        public var from: String
        public var recipients: [String]
        public init(from: String, recipients: [String]) { self.from = from; self.recipients = recipients }
    }

    public var url: String
    /// CURLOPT_PROTOCOLS_STR, e.g. "https"; nil: whatever libcurl supports.
    public var protocols: String?
    /// Connect limit and whole-transfer limit (0: none).
    public var timeoutMilliseconds: Int
    /// PEM file of the CA certificates to trust; empty: the system's store.
    public var caFile = ""
    /// CURLOPT_RESOLVE entries (`host:port:address`): the addresses a host name is pinned to.
    public var resolve: [String] = []
    /// Asked before every socket is opened; false refuses it (the outcome's `connectRefused`).
    public var allowConnect: ((UnsafePointer<sockaddr>) -> Bool)?
    /// No proxy, whatever `http_proxy`/`https_proxy` say.
    public var ignoresProxyEnvironment = false
    /// Request header lines (`Name: value`; `Name:` removes one curl would send).
    public var headers: [String] = []
    /// A POST body (copied into curl when the transfer starts).
    public var post: [UInt8]?
    /// A method other than GET and POST (CURLOPT_CUSTOMREQUEST).
    public var method: String?
    /// The largest answer body: a larger one is refused (announced or as it arrives); nil: no limit.
    public var maxBodyBytes: Int?
    public var mail: Mail?
    /// Bytes sent to the server (CURLOPT_UPLOAD), e.g. an SMTP message.
    public var upload: [UInt8]?
    /// Refuse to go on without TLS (STARTTLS on `smtp://`).
    public var requireTLS = false
    /// Login (CURLOPT_USERNAME / CURLOPT_PASSWORD).
    public var credentials: (username: String, password: String)?

    public init(url: String, timeoutMilliseconds: Int) {
        self.url = url
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// What a performed transfer gave.
    public struct Outcome {
        public let code: CURLcode
        /// Response code: the HTTP status (or the SMTP server's last reply).
        public let status: Int
        /// The Content-Type header, if any.
        public let contentType: String?
        public let body: [UInt8]
        /// The answer was longer than `maxBodyBytes`.
        public let bodyTooLarge: Bool
        /// `allowConnect` refused an address.
        public let connectRefused: Bool
        /// curl's own detail for a failure (its error buffer, as curl wrote it); empty if none.
        public let detail: String

        public var succeeded: Bool { code == CURLE_OK }
        /// curl's short text for `code` (curl_easy_strerror).
        public var message: String { String(cString: curl_easy_strerror(code)) }
    }

    /// curl_global_init, once per process, before any thread uses curl.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Runs the transfer; nil when libcurl could not make a handle.
    public func perform() -> Outcome? {
        _ = Self.globalInit
        guard let curl = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(curl) }
        var lists: [UnsafeMutablePointer<curl_slist>?] = []
        defer { lists.forEach { curl_slist_free_all($0) } }
        func list(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
            var list: UnsafeMutablePointer<curl_slist>?
            for line in lines { list = curl_slist_append(list, line) }
            lists.append(list)
            return list
        }
        let detail = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        detail.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { detail.deallocate() }
        let buffers = Unmanaged.passRetained(TransferBuffers(upload: upload ?? [], limit: maxBodyBytes, allowConnect: allowConnect))
        defer { buffers.release() }

        fd_curl_setopt_string(curl, CURLOPT_URL, url)
        if let protocols { fd_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, protocols) }
        fd_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, detail)
        fd_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        fd_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        fd_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, timeoutMilliseconds)
        fd_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        if !caFile.isEmpty { fd_curl_setopt_string(curl, CURLOPT_CAINFO, caFile) }
        if !resolve.isEmpty { fd_curl_setopt_slist(curl, CURLOPT_RESOLVE, list(resolve)) }
        if ignoresProxyEnvironment { fd_curl_setopt_string(curl, CURLOPT_PROXY, "") }
        if !headers.isEmpty { fd_curl_setopt_slist(curl, CURLOPT_HTTPHEADER, list(headers)) }
        if let post {
            fd_curl_setopt_long(curl, CURLOPT_POST, 1)
            fd_curl_setopt_long(curl, CURLOPT_POSTFIELDSIZE, post.count)
            // COPYPOSTFIELDS copies `POSTFIELDSIZE` bytes now, so the buffer need not outlive this call.
            var body = post
            body.append(0)
            body.withUnsafeMutableBytes { _ = fd_curl_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        }
        if let method { fd_curl_setopt_string(curl, CURLOPT_CUSTOMREQUEST, method) }
        if let maxBodyBytes { fd_curl_setopt_long(curl, CURLOPT_MAXFILESIZE, maxBodyBytes) }
        if let mail {
            fd_curl_setopt_string(curl, CURLOPT_MAIL_FROM, "<\(mail.from)>")
            fd_curl_setopt_slist(curl, CURLOPT_MAIL_RCPT, list(mail.recipients.map { "<\($0)>" }))
        }
        if requireTLS { fd_curl_setopt_long(curl, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)) }
        if let credentials {
            fd_curl_setopt_string(curl, CURLOPT_USERNAME, credentials.username)
            fd_curl_setopt_string(curl, CURLOPT_PASSWORD, credentials.password)
        }
        TransferBuffers.attach(buffers, to: curl, uploading: upload != nil, guardingConnects: allowConnect != nil)

        let code = curl_easy_perform(curl)
        var status = 0
        fd_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        var type: UnsafeMutablePointer<CChar>?
        fd_curl_getinfo_string(curl, CURLINFO_CONTENT_TYPE, &type)
        let state = buffers.takeUnretainedValue()
        return Outcome(code: code, status: status, contentType: type.map { String(cString: $0) }, body: state.body,
                       bodyTooLarge: state.tooLarge || code == CURLE_FILESIZE_EXCEEDED, connectRefused: state.refused,
                       detail: String(cString: detail))
    }
}
