// HTTPClient+JSON.swift: the calls that expect a JSON object back (discovery, JWKS, userinfo, profiles), the form
// encoding of token requests and authorization URLs (base64url is the shared one, module Encodings).
import Foundation

extension HTTPClient {
    /// GETs `url` and reads a JSON object; a non-2xx status → `OAuthError.provider`, anything but an object → invalidResponse.
    func getObject(_ url: String, headers: [HTTPRequest.Header] = [], what: String) throws -> [String: JSONValue] {
        let response = try send(HTTPRequest(url: url, headers: [HTTPRequest.Header("Accept", "application/json")] + headers))
        guard (200..<300).contains(response.status) else { throw OAuthError.provider("\(what) answered HTTP \(response.status)") }
        return try JSONValue.object(response.body, what: what)
    }

    /// GETs `url` and reads any JSON value (GitHub's address list is an array), with the same errors as `getObject`.
    func getValue(_ url: String, headers: [HTTPRequest.Header] = [], what: String) throws -> JSONValue {
        let response = try send(HTTPRequest(url: url, headers: [HTTPRequest.Header("Accept", "application/json")] + headers))
        guard (200..<300).contains(response.status) else { throw OAuthError.provider("\(what) answered HTTP \(response.status)") }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)) else {
            throw OAuthError.invalidResponse("\(what) is not JSON")
        }
        return value
    }
}

/// application/x-www-form-urlencoded, as in token requests and query strings (space as %20, which both accept).
enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `name=value&…` in the order given.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// `url` with `pairs` appended to its query.
    static func appending(_ pairs: [(String, String)], to url: String) -> String {
        let separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        return url + separator + encode(pairs)
    }
}
