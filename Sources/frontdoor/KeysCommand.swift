// KeysCommand.swift: `frontdoor keys show` prints the BrowserID root keys; `frontdoor keys rotate` makes a new one.
// The private key is never printed. After a rotation the previous key stays published and trusted for one
// certificate lifetime (browserid.certificate_lifetime), so certificates it signed verify until they expire.
import AccountCore
import ArgumentParser
import Foundation
import WebFront

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keys", abstract: "Show or rotate the BrowserID root key.",
                                                    subcommands: [Show.self, Rotate.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the issuer, the current public key (JSON) and every key's dates.")
        @OptionGroup var options: ConfigOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let provider = try provider()
                let keys = try provider.keys.all()
                if json {
                    return try JSONValue.object(["issuer": .string(provider.issuer), "keys": .array(keys.map { key in
                        .object(["id": .int(key.id), "publicKey": .string(key.publicKey), "createdAt": .date(key.createdAt),
                                 "retiredAt": .date(key.retiredAt), "current": .bool(key.retiredAt == nil)])
                    })]).print()
                }
                print("issuer: \(provider.issuer)")
                if let current = keys.first(where: { $0.retiredAt == nil }) { print("public key: \(current.publicKey)") }
                for key in keys { print(describe(key)) }
            }
        }

        func provider() throws -> IdentityProvider {
            guard let provider = try Bootstrap.makeApp(try options.load()).site.browserID?.provider else {
                throw CommandFailure("frontdoor: BrowserID is not set up")
            }
            return provider
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new root key; the previous one stays published and trusted for one certificate lifetime.")
        @OptionGroup var options: ConfigOptions

        func run() throws {
            try reportingFailures {
                guard let provider = try Bootstrap.makeApp(try options.load()).site.browserID?.provider else {
                    throw CommandFailure("frontdoor: BrowserID is not set up")
                }
                let key = try provider.rotate()
                print("rotated: key #\(key.id) is now current")
                print("public key: \(key.publicKey)")
            }
        }
    }
}

private func describe(_ key: StoredSigningKey) -> String {
    let stamp = ISO8601DateFormatter()
    let state = key.retiredAt.map { "retired \(stamp.string(from: $0))" } ?? "current"
    return "key #\(key.id): created \(stamp.string(from: key.createdAt)), \(state)"
}
