// AppConfiguration+Identity.swift: config sections `identity` (usernames) and `gate` (what the gate tells apps).
//
// Options:
//   identity.username        off | optional | required: whether people choose their username (Usernames.swift)
//   gate.headers.user        the username's header (default Remote-User)
//   gate.headers.name        the display name's (Remote-Name)
//   gate.headers.email       the verified primary address's (Remote-Email)
//   gate.headers.groups      the comma-separated groups' (Remote-Groups)
//   gate.headers.account_id  the account id's, when `gate.account_id` is `header` (Remote-Account-Id)
//   gate.account_id          off | header | remote_user: for apps keyed on the numeric Remote-User older versions sent
// docs/headers.md is the contract.
import AccountRules

extension AppConfiguration {
    /// Config section `identity`.
    public struct Identity: Sendable, Equatable {
        /// `username`: whether sign-up and settings let people choose their username.
        public var username = Username.Mode.off
    }

    /// Config section `gate`: the headers of the gate's answer.
    public struct Gate: Sendable, Equatable {
        /// Where the gate puts the account id, for apps keyed on the numeric Remote-User older versions sent.
        public enum AccountId: String, Sendable, Equatable, CaseIterable {
            /// Not sent.
            case off
            /// In its own header, `headers.account_id`.
            case header
            /// As the user header instead of the username (an install whose apps cannot move yet).
            case remoteUser = "remote_user"
        }

        /// The header names (`headers.*`).
        public struct Headers: Sendable, Equatable {
            public var user = "Remote-User"
            public var name = "Remote-Name"
            public var email = "Remote-Email"
            public var groups = "Remote-Groups"
            public var accountId = "Remote-Account-Id"
        }

        public var headers = Headers()
        /// `account_id`.
        public var accountId = AccountId.off
    }
}

extension ConfigKeys {
    /// A header name: letters, digits and `-` only (anything else could break the answer's header block).
    static func headerName(_ name: String, _ path: WritableKeyPath<AppConfiguration, String> & Sendable, _ meaning: String) -> ConfigKey {
        ConfigKey(name, type: "header name", meaning, apply: { c, v in
            guard !v.isEmpty, v.count <= 64, v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw ConfigError("must be a header name: letters, digits and - (got \"\(v)\")")
            }
            c[keyPath: path] = v
        }, read: { $0[keyPath: path] })
    }
}
