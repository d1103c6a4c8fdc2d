// KeysCommand.swift: `frontdoor keys show` prints the BrowserID root keys, then the OpenID Connect signing keys;
// `frontdoor keys rotate` makes a new BrowserID key, `frontdoor keys rotate openid` a new OpenID one
// (KeysCommand+OpenID.swift). The private key is never printed. After a rotation the previous BrowserID key stays
// published and trusted for one certificate lifetime (browserid.certificate_lifetime), so certificates it signed
// verify until they expire; the previous OpenID key stays in the JWKS for oidc.key_grace.
// `frontdoor keys forget-token-key` forgets the database's check of `social.token_key_file` (TokenVault+Shared), so
// the next host to start records its own key: for starting over after the key was lost or replaced on purpose.
import AccountCore
import ArgumentParser
import Foundation
import WebFront

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keys",
                                                    abstract: "Show or rotate the BrowserID root key and the OpenID signing key; forget the social token key.",
                                                    subcommands: [Show.self, Rotate.self, ForgetTokenKey.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the issuer, the current public key (JSON) and every key's dates: BrowserID's, then OpenID's.")
        @OptionGroup var options: ConfigOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let app = try Bootstrap.makeApp(try options.load())
                guard let provider = app.site.browserID?.provider else { throw CommandFailure("frontdoor: BrowserID is not set up") }
                let keys = try provider.keys.all()
                if json {
                    return try JSONValue.object(["issuer": .string(provider.issuer), "keys": .array(keys.map { key in
                        .object(["id": .int(key.id), "publicKey": .string(key.publicKey), "createdAt": .date(key.createdAt),
                                 "retiredAt": .date(key.retiredAt), "current": .bool(key.retiredAt == nil)])
                    }), "openid": try KeysCommand.openIDJSON(app)]).print()
                }
                print("issuer: \(provider.issuer)")
                if let current = keys.first(where: { $0.retiredAt == nil }) { print("public key: \(current.publicKey)") }
                for key in keys { print(describe(key)) }
                for line in try KeysCommand.describeOpenID(app) { print(line) }
            }
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new BrowserID root key (or, with `openid`, OpenID signing key); the previous one stays published.",
            discussion: """
                browserid (the default): the previous root key stays published and trusted for one certificate lifetime. \
                openid: the previous key stays in the JWKS for oidc.key_grace, so ID tokens it signed verify until they expire.
                """)
        @OptionGroup var options: ConfigOptions
        @Argument(help: "Which key: browserid (the default) or openid.") var purpose: KeyPurpose = .browserid

        func run() throws {
            try reportingFailures {
                let app = try Bootstrap.makeApp(try options.load())
                if purpose == .openid { return try KeysCommand.rotateOpenID(app) }
                guard let provider = app.site.browserID?.provider else {
                    throw CommandFailure("frontdoor: BrowserID is not set up")
                }
                let key = try provider.rotate()
                print("rotated: key #\(key.id) is now current")
                print("public key: \(key.publicKey)")
            }
        }
    }
}

extension KeysCommand {
    struct ForgetTokenKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget-token-key",
            abstract: "Forget which social.token_key_file the hosts share; the next host to start records its own.",
            discussion: """
                Provider tokens sealed with the old key can no longer be read: people sign in with their provider again. \
                One-time-code secrets are sealed with it too: their codes stop working (recovery codes still do), so \
                people sign in with a recovery code and set codes up again, or the operator runs `frontdoor user 2fa reset`. \
                Hosts already running keep the key they started with: stop them all first, then start one with the new key \
                file and copy that file to the others before they start.
                """)
        @OptionGroup var options: ConfigOptions

        func run() throws {
            try reportingFailures {
                // Not through makeApp: that is what refuses a host whose key differs.
                let database = try Bootstrap.openDatabase(try options.load(), migrating: false)
                guard try TokenVault.forgetSharedKey(database: database) else {
                    return print("no social token key recorded: the next host to start records its own")
                }
                print("forgot the social token key: the next host to start records its social.token_key_file; copy that file to every other host")
            }
        }
    }
}

private func describe(_ key: StoredSigningKey) -> String {
    let stamp = ISO8601DateFormatter()
    let state = key.retiredAt.map { "retired \(stamp.string(from: $0))" } ?? "current"
    return "key #\(key.id): created \(stamp.string(from: key.createdAt)), \(state)"
}
