// SMTPTransport.swift: sends a message over SMTP with libcurl (STARTTLS, implicit TLS, AUTH), TLS verification on.
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

        public init(url: String, startTLS: Bool = false, username: String = "", password: String = "", timeout: Int = 30) {
            self.url = url
            self.startTLS = startTLS
            self.username = username
            self.password = password
            self.timeout = timeout
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

        fd_curl_setopt_string(curl, CURLOPT_URL, settings.url)
        fd_curl_setopt_string(curl, CURLOPT_MAIL_FROM, "<\(sender)>")
        fd_curl_setopt_slist(curl, CURLOPT_MAIL_RCPT, recipients)
        fd_curl_setopt_long(curl, CURLOPT_UPLOAD, 1)
        fd_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        fd_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT, settings.timeout)
        fd_curl_setopt_long(curl, CURLOPT_TIMEOUT, settings.timeout)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        fd_curl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
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
            throw MailError("mail: SMTP delivery to \(settings.url) failed: " + String(cString: curl_easy_strerror(code)))
        }
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
