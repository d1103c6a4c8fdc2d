// Browser.swift: what the integration tests do as a person would: open a mailed link, submit the form on it.
//
// Options: none. Cookies are kept by hand per Browser (Set-Cookie in, Cookie out), so each one is its own visitor;
// redirects are not followed. The outbox holds each mail as an RFC 5322 .eml file written by frontdoor's sender.
import Foundation
import FrontdoorClient
import Locking
import MailTestKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cookie-keeping HTTP client for pages (not the JSON API).
final class Browser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    struct Page {
        var status: Int
        var text: String
        /// The Location header of a redirect (not followed), if any.
        var location: String? = nil
    }

    private let lock = Lock()
    private var cookies: [String: String] = [:]
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func get(_ url: URL) async throws -> Page { try await load(URLRequest(url: url)) }

    /// POSTs `fields` form-encoded.
    func post(_ url: URL, _ fields: [String: String]) async throws -> Page {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&").utf8)
        return try await load(request)
    }

    private func load(_ request: URLRequest) async throws -> Page {
        var request = request
        let header = lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if !header.isEmpty { request.setValue(header, forHTTPHeaderField: "Cookie") }
        let answer = try await URLSessionTransport(session: session).send(request)
        if let url = request.url {
            let headers = answer.headers.reduce(into: [String: String]()) { $0[$1.key.capitalized] = $1.value }
            let received = HTTPCookie.cookies(withResponseHeaderFields: headers, for: url)
            lock.withLock { for cookie in received { cookies[cookie.name] = cookie.value } }
        }
        return Page(status: answer.status, text: String(decoding: answer.body, as: UTF8.self), location: answer.headers["location"])
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// The value of the hidden input `name` in `html`.
    static func field(_ name: String, in html: String) -> String? {
        guard let input = html.range(of: "name=\"\(name)\"") else { return nil }
        let rest = html[input.upperBound...]
        guard let value = rest.range(of: "value=\""), let end = rest[value.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(rest[value.upperBound..<end])
    }
}

/// The mails frontdoor wrote to the stack's outbox.
struct Outbox {
    let folder: String

    /// The link containing `marker` in the one mail to `address` that has one, waiting for the sender to write it.
    /// Two such mails fail the test: the outbox's file names are random, so which is newer cannot be told.
    func link(to address: String, containing marker: String) async throws -> URL {
        var found: URL?
        try await waitUntil("a mail to \(address) with \(marker)") {
            let links = scan(address, marker)
            guard links.count <= 1 else { throw HarnessError("\(links.count) mails to \(address) with \(marker): \(links)") }
            found = links.first
            return found != nil
        }
        return found!
    }

    private func scan(_ address: String, _ marker: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.compactMap { name in
            // Read as a mail client would: the bodies are quoted-printable (a link's "=" is "=3D", long lines are cut).
            guard let raw = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8), let text = try? ReadMail(raw).readable,
                  text.range(of: address, options: .caseInsensitive) != nil else { return nil }
            let word = text.split(whereSeparator: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
                .first { $0.hasPrefix("http") && $0.contains(marker) }
            return word.flatMap { URL(string: $0.replacingOccurrences(of: "&amp;", with: "&")) }
        }
    }
}
