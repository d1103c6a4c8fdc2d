// SMTPTransport.swift: sends a message over SMTP with libcurl (STARTTLS, implicit TLS, AUTH), TLS verification on:
// one CurlTransfer (module Curl) per message, and the wording of its failures.
//
// Options (config section `mail`, see MailTransport.swift): smtp_url, smtp_starttls, smtp_username, smtp_password,
// smtp_ca_file (PEM CA certificates trusted instead of the system store; empty: the system store), timeout.
// The server's certificate is always checked (chain and host name); a refused one, a refused login or a server without
// STARTTLS is a `MailError` naming the cause and the key to look at, which the queue records. Neither the password nor
// credentials written in the URL ever appear in an error.
import CCurl
import Curl
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
    }

    public func deliver(_ message: String, from sender: String, to recipient: String, id: String) throws {
        var transfer = CurlTransfer(url: settings.url, timeoutMilliseconds: settings.timeout * 1000)
        transfer.mail = CurlTransfer.Mail(from: sender, recipients: [recipient])
        transfer.upload = Array(message.utf8)
        transfer.caFile = settings.caFile
        transfer.requireTLS = settings.startTLS
        if !settings.username.isEmpty { transfer.credentials = (settings.username, settings.password) }
        guard let outcome = transfer.perform() else { throw MailError("mail: curl could not start") }
        guard outcome.succeeded else { throw Self.failure(outcome.code, detail: outcome.detail, url: settings.url) }
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
