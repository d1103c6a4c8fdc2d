// FrontdoorClient+Configuration.swift: where the server is and how to talk to it.
//
// Options (all but serverURL have defaults):
//   serverURL        the server's base, e.g. http://127.0.0.1:8080/account (the API is <serverURL>/v<apiVersion>/…)
//   apiVersion       1
//   resourceName     "users" (the devise-ios resource: <serverURL>/v1/users, …/sign_in, …/password)
//   timeout          30 s per request
//   retries          2 more attempts after a connection error (never after an HTTP answer, whatever its status)
//   retryBackoff     0.5 s, doubled before each further attempt (0.5 s, 1 s, …)
//   passwordLength   12...128: the client-side check before sending (set it to the server's password.min/max_length)
//   extraParameters  per action, keys added to what is sent ("user" object, or the top level for residences);
//                    the client's own keys win over these
//   validationRules  per action, extra AccountRules fields checked before sending (devise-ios'
//                    additionalValidationRulesForAction:): the values are what the call sends, extra parameters
//                    included, under the client's names; a field's displayName and Rule.message(_:) set the wording
//   fieldNames       JSON keys renamed in every "user" object sent (devise-ios' JSONKeyPathFor…), e.g.
//                    ["passwordConfirmation": "password_confirmation"]; rules and extra parameters use the client's names
//   logLevel         .none (default), .warnings (retries, refusals, failures) or .everything (each request and answer
//                    too); lines name the method, path, status and the server's message, never a body or header
//   logSink          where lines go (standard error, prefixed "FrontdoorClient: ", by default)
//   catalog          wording of the client-side validation messages (AccountRules' English by default)
import AccountRules
import Foundation

extension FrontdoorClient {
    /// What a client needs to know about its server; every value but `serverURL` has a default.
    public struct Configuration: Sendable {
        public var serverURL: URL
        public var apiVersion: Int
        public var resourceName: String
        public var timeout: TimeInterval
        public var retries: Int
        public var retryBackoff: TimeInterval
        public var passwordLength: ClosedRange<Int>
        public var extraParameters: [Action: [String: String]]
        public var validationRules: [Action: [Field]]
        public var fieldNames: [String: String]
        public var logLevel: LogLevel
        public var logSink: LogSink
        public var catalog: MessageCatalog

        public init(serverURL: URL, apiVersion: Int = 1, resourceName: String = "users", timeout: TimeInterval = 30,
                    retries: Int = 2, retryBackoff: TimeInterval = 0.5,
                    passwordLength: ClosedRange<Int> = AccountForms.defaultPasswordLength,
                    extraParameters: [Action: [String: String]] = [:], validationRules: [Action: [Field]] = [:],
                    fieldNames: [String: String] = [:], logLevel: LogLevel = .none, logSink: @escaping LogSink = standardErrorLog,
                    catalog: MessageCatalog = .english) {
            self.serverURL = serverURL
            self.apiVersion = apiVersion
            self.resourceName = resourceName
            self.timeout = timeout
            self.retries = retries
            self.retryBackoff = retryBackoff
            self.passwordLength = passwordLength
            self.extraParameters = extraParameters
            self.validationRules = validationRules
            self.fieldNames = fieldNames
            self.logLevel = logLevel
            self.logSink = logSink
            self.catalog = catalog
        }

        /// `<serverURL>/v<apiVersion>/<path>`.
        func url(_ path: String) -> URL {
            var base = serverURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return URL(string: "\(base)/v\(apiVersion)/\(path)")!
        }

        /// The delay before attempt `attempt` (1 for the first retry).
        func delay(beforeRetry attempt: Int) -> TimeInterval {
            retryBackoff * Double(1 << min(max(attempt - 1, 0), 16))
        }
    }

    /// The calls a client makes; `Configuration.extraParameters` is keyed by them.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        case register, signIn, signOut, update, changePassword, remindPassword, resetPassword, deleteAccount, socialSignIn
        case registerResidence, verifyResidence
        /// The second step of a sign-in (`completeSignIn(_:code:)`).
        case completeSignIn
    }
}
