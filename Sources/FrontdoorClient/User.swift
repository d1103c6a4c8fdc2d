// User.swift: the account as the API describes it, and the JSON answers that carry one.
//
// Options: none. The wire (docs/native-apps.md):
//   {"user":{"id":12,"email":"ann@x","authenticationToken":"…"|null,"createdAt":"2026-11-24T10:00:00.000Z",
//            "updatedAt":"…","username":"ann","displayName":"Ann Lee","profile":{"phone":"…"}
//            [,"unconfirmedEmail":"new@x"]}[,"confirmationSent":true]}
// (the declared fields also come at the top level, for devise-ios; this client reads them from `profile`). A server
// older than usernames sends none of the last three: `username` and `displayName` are nil then, `profile` empty.
// Times are ISO 8601 in UTC with or without milliseconds; keys the client does not know are ignored.
import Foundation

/// An account as the server last described it.
public struct User: Sendable, Equatable, Codable {
    /// The account id; nil in the answer to a registration that waits for a confirmed address.
    public var id: Int64?
    /// The primary address.
    public var email: String
    /// The API token this answer issued or echoed; nil when it carried none.
    public var authenticationToken: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    /// A new address asked for by `update(email:)`, waiting for its confirmation link before it becomes primary.
    public var unconfirmedEmail: String?
    /// What the site's apps know the person as (the gate's Remote-User); follows AccountRules' `Username` rule.
    public var username: String?
    /// The display name; "" when the person set none.
    public var displayName: String?
    /// The operator's declared profile fields that have a value, by field name (what the app registered or updated).
    public var profile: [String: String]

    public init(id: Int64?, email: String, authenticationToken: String? = nil, createdAt: Date? = nil,
                updatedAt: Date? = nil, unconfirmedEmail: String? = nil, username: String? = nil, displayName: String? = nil,
                profile: [String: String] = [:]) {
        self.id = id
        self.email = email
        self.authenticationToken = authenticationToken
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.unconfirmedEmail = unconfirmedEmail
        self.username = username
        self.displayName = displayName
        self.profile = profile
    }

    enum CodingKeys: String, CodingKey {
        case id, email, authenticationToken, createdAt, updatedAt, unconfirmedEmail, username, displayName, profile
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try keys.decodeIfPresent(Int64.self, forKey: .id), email: try keys.decode(String.self, forKey: .email),
                  authenticationToken: try keys.decodeIfPresent(String.self, forKey: .authenticationToken),
                  createdAt: try keys.decodeIfPresent(Date.self, forKey: .createdAt),
                  updatedAt: try keys.decodeIfPresent(Date.self, forKey: .updatedAt),
                  unconfirmedEmail: try keys.decodeIfPresent(String.self, forKey: .unconfirmedEmail),
                  username: try keys.decodeIfPresent(String.self, forKey: .username),
                  displayName: try keys.decodeIfPresent(String.self, forKey: .displayName),
                  profile: try keys.decodeIfPresent([String: String].self, forKey: .profile) ?? [:])
    }
}

/// How a registration ended.
public enum RegistrationResult: Sendable, Equatable {
    /// The account exists and is signed in (its credentials are stored).
    case signedIn(User)
    /// The server mailed a confirmation link (or, for a taken address, says the same to keep it private); sign in
    /// after following it.
    case confirmationSent
}

/// The JSON bodies the client reads.
enum Wire {
    struct UserEnvelope: Decodable {
        var user: User
        var confirmationSent: Bool?
    }

    struct Residence: Decodable {
        var id: String
        var state: String
        var secret: String
    }

    struct CollectedResidence: Decodable {
        var email: String
        var state: String
        var token: String
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        return decoder
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// `body` decoded as `T`, or `.invalidResponse`.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        do {
            return try decoder().decode(type, from: body)
        } catch {
            throw FrontdoorClientError.invalidResponse
        }
    }
}
