// SMTPTransport.swift: sends a message over SMTP with libcurl (STARTTLS, implicit TLS, AUTH), TLS verification on.
//
// Options (config section `mail`, see MailTransport.swift): smtp_url, smtp_starttls, smtp_username, smtp_password,
// smtp_ca_file (PEM CA certificates trusted instead of the system store; empty: the system store), timeout.
// The server's certificate is always checked (chain and host name); a refused one, a refused login or a server without
// STARTTLS is a `MailError` naming the cause and the key to look at, which the queue records. Neither the password nor
// credentials written in the URL ever appear in an error.
import CCurl
import Foundation

/// SMTP delivery through libcurl's SMTP support; one connection per message.
public struct SMTPTransport: MailTransport {
    /// Server and credentials (config section `mail`).
    public struct Settings: Sendable, Equatable {
        /// `smtp://host:port` (plain or STARTTLS) or `smtps://host:port` (implicit TLS).
        public var url: String
        /// Require STARTTLS on `smtp://` URLs.
        public var startTLS: Bool
        public var username: String
        public var password: String
        /// Connect and whole-transfer limit in seconds.
        public var timeout: Int
        /// PEM file of the CA certificates to trust for the server's certificate; empty: the system's store.
        public var caFile: String

        public init(url: String, startTLS: Bool = false, username: String = "", password: String = "", timeout: Int = 30,
                    caFile: String = "") {
            self.url = url
            self.startTLS = startTLS
            self.username = username
            self.password = password
            self.timeout = timeout
            self.caFile = caFile
        }
    }

    public let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
        _ = SMTPTransport.globalInit
    }

    /// curl_global_init, once per process, before any thread uses curl.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws {
        guard let curl = curl_easy_init() else { throw MailError("mail: curl could not start") }
        defer { curl_easy_cleanup(curl) }
        let source = MessageSource(Array(message.utf8))
        let context = Unmanaged.passRetained(source)
        defer { context.release() }
        let recipients = curl_slist_append(nil, "<\(recipient)>")
        defer { curl_slist_free_all(recipients) }
        let detail = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        detail.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { detail.deallocate() }

        fd_curl_setopt_string(curl, CURLOPT_URL, settings.url)
        fd_curl_setopt_string(curl, CURLOPT_MAIL_FROM, "<\(sender)>")
        fd_curl_setopt_slist(curl, CURLOPT_MAIL_RCPT, recipients)
        fd_curl_setopt_long(curl, CURLOPT_UPLOAD, 1)
        fd_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        fd_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT, settings.timeout)
        fd_curl_setopt_long(curl, CURLOPT_TIMEOUT, settings.timeout)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        if !settings.caFile.isEmpty { fd_curl_setopt_string(curl, CURLOPT_CAINFO, settings.caFile) }
        fd_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, detail)
        if settings.startTLS { fd_curl_setopt_long(curl, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)) }
        if !settings.username.isEmpty {
            fd_curl_setopt_string(curl, CURLOPT_USERNAME, settings.username)
            fd_curl_setopt_string(curl, CURLOPT_PASSWORD, settings.password)
        }
        fd_curl_setopt_pointer(curl, CURLOPT_READDATA, context.toOpaque())
        fd_curl_setopt_read(curl) { buffer, size, count, userdata in
            guard let buffer, let userdata else { return 0 }
            return Unmanaged<MessageSource>.fromOpaque(userdata).takeUnretainedValue().read(into: buffer, capacity: size * count)
        }
        let code = curl_easy_perform(curl)
        guard code == CURLE_OK else {
            throw Self.failure(code, detail: String(cString: detail), url: settings.url)
        }
    }

    /// The error for a failed delivery: what went wrong, curl's detail (never holds the password: curl words its
    /// failures itself), and the config key that decides it; the URL is shown without credentials.
    ///
    /// ```swift
    /// SMTPTransport.failure(CURLE_LOGIN_DENIED, detail: "Authentication failed: 535", url: "smtps://mail.example.com")
    /// // mail: SMTP delivery to smtps://mail.example.com failed: the server refused the login
    /// //   (mail.smtp_username / smtp_password): Authentication failed: 535
    /// ```
    static func failure(_ code: CURLcode, detail: String, url: String) -> MailError {
        let cause: String = switch code {
        case CURLE_PEER_FAILED_VERIFICATION:
            "the server's TLS certificate was refused (not from a trusted CA, or not for this host name;"
                + " trust its CA with mail.smtp_ca_file, name the host as its certificate does in mail.smtp_url)"
        case CURLE_SSL_CACERT_BADFILE: "cannot read the CA certificates of mail.smtp_ca_file"
        case CURLE_LOGIN_DENIED: "the server refused the login (mail.smtp_username / smtp_password)"
        case CURLE_USE_SSL_FAILED: "the server does not offer STARTTLS (mail.smtp_starttls is on)"
        default: String(cString: curl_easy_strerror(code))
        }
        var text = "mail: SMTP delivery to \(redacted(url)) failed: \(cause)"
        if !detail.isEmpty { text += ": " + detail.trimmingCharacters(in: .whitespacesAndNewlines) }
        return MailError(text)
    }

    /// `smtps://user:secret@host:465` → `smtps://host:465`.
    static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + String(rest[rest.index(after: at)...])
    }
}

/// The bytes curl reads the message from, in chunks.
private final class MessageSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
