// ClientCommand.swift: `frontdoor client add|list|remove|rotate-secret`: the OpenID Connect clients kept in the
// database (AccountCore's OpenIDClients), beside those of the config file (`oidc.clients`), which only the file changes.
//
// Options of add: ID (argument), --redirect-uri (repeatable, at least one, exact match), --name, --public (no secret,
// PKCE required: native apps), --scope (repeatable or space-separated; default openid profile email groups), --allow
// RULE (FRONTDOOR_ALLOW's language), --second-factor required|optional, --first-party (no consent page),
// --post-logout-redirect-uri (repeatable), --backchannel-logout-uri, --pairwise (a `sub` of its own), --api-sign-in (its
// access tokens may become API tokens). A confidential client's secret is made by Frontdoor and printed once on stdout
// (the only line there); it is never taken from argv, and only its digest is stored. list [--json] shows both kinds,
// marked `config` or `database`. remove and rotate-secret refuse a config-file client, saying to edit the file.
// Failures: one line on stderr, exit 1 (a bad URI, a taken id, an unknown client).
import AccountCore
import ArgumentParser
import Foundation
import WebFront

struct ClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client", abstract: "Manage OpenID Connect clients: add, list, remove, rotate-secret.",
        subcommands: [Add.self, List.self, Remove.self, RotateSecret.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a client; a confidential one's secret is printed once on stdout.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The client id: 1 to 64 of A-Z, a-z, 0-9, ., _ and -.") var id: String
        @Option(name: .customLong("redirect-uri"), help: "A redirect URI, matched exactly (repeatable; at least one).") var redirectURIs: [String] = []
        @Option(help: "The name people see on the consent page (default: the id).") var name: String?
        @Flag(name: .customLong("public"), help: "No secret; PKCE S256 required (native apps, single-page apps).") var isPublic = false
        @Option(name: .customLong("scope"), help: "A scope it may ask (repeatable; default: openid profile email groups).") var scopes: [String] = []
        @Option(help: "Who may use it, in FRONTDOOR_ALLOW's rule language (default: everyone signed in).") var allow = ""
        @Option(name: .customLong("second-factor"), help: "required or optional (default).") var secondFactor = "optional"
        @Flag(name: .customLong("first-party"), help: "Skip the consent page.") var firstParty = false
        @Option(name: .customLong("post-logout-redirect-uri"), help: "Where RP-initiated logout may return (repeatable).") var logoutURIs: [String] = []
        @Option(name: .customLong("backchannel-logout-uri"), help: "Told (signed logout token) when a session ends.") var backchannel: String?
        @Flag(help: "Give it a pairwise subject (its own `sub` per person).") var pairwise = false
        @Flag(name: .customLong("api-sign-in"), help: "Its access tokens may be exchanged for API tokens (v1/users/sign_in/oidc).") var apiSignIn = false

        func run() throws {
            try reportingFailures {
                guard ["required", "optional"].contains(secondFactor) else {
                    throw CommandFailure("frontdoor: --second-factor must be required or optional, not \"\(secondFactor)\"")
                }
                let words = scopes.flatMap { $0.split(separator: " ").map(String.init) }
                let client = OpenIDClient(id: id, name: name ?? id, secretDigests: [], isPublic: isPublic, redirectURIs: unique(redirectURIs),
                                          postLogoutRedirectURIs: unique(logoutURIs),
                                          scopes: words.isEmpty ? OpenIDClientRules.defaultScopes : unique(words), allow: allow,
                                          requiresSecondFactor: secondFactor == "required", firstParty: firstParty,
                                          subjectType: pairwise ? .pairwise : .public,
                                          backchannelLogoutURI: backchannel.flatMap { $0.isEmpty ? nil : $0 }, apiSignIn: apiSignIn,
                                          source: .database, createdAt: nil)
                if let problem = OpenIDClientRules.problem(in: client) { throw CommandFailure("frontdoor: " + problem) }
                let clients = try openIDClients(options)
                let secret = try clientWorded(id) { try clients.add(client) }
                if let secret {
                    print(secret)
                    FileHandle.standardError.write(Data("created client \(id); its secret is above, shown only now\n".utf8))
                } else {
                    print("created public client \(id)")
                }
            }
        }

        private func unique(_ items: [String]) -> [String] {
            var seen: [String] = []
            for item in items where !seen.contains(item) { seen.append(item) }
            return seen
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the clients of the config file and of the database.")
        @OptionGroup var options: ConfigOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let clients = try openIDClients(options).all().sorted { $0.id < $1.id }
                if json {
                    return try JSONValue.array(clients.map { client in
                        .object(["id": .string(client.id), "name": .string(client.name), "source": .string(source(client)),
                                 "public": .bool(client.isPublic), "redirectURIs": .array(client.redirectURIs.map(JSONValue.string)),
                                 "postLogoutRedirectURIs": .array(client.postLogoutRedirectURIs.map(JSONValue.string)),
                                 "scopes": .array(client.scopes.map(JSONValue.string)), "allow": .string(client.allow),
                                 "secondFactor": .string(client.requiresSecondFactor ? "required" : "optional"),
                                 "firstParty": .bool(client.firstParty), "subject": .string(client.subjectType.rawValue),
                                 "backchannelLogoutURI": .text(client.backchannelLogoutURI), "apiSignIn": .bool(client.apiSignIn),
                                 "createdAt": .date(client.createdAt)])
                    }).print()
                }
                if clients.isEmpty { return print("no clients") }
                printTable(["ID", "SOURCE", "TYPE", "NAME", "REDIRECT URIS"], clients.map { client in
                    [client.id, source(client), client.isPublic ? "public" : "confidential", client.name,
                     client.redirectURIs.joined(separator: " ")]
                })
            }
        }

        private func source(_ client: OpenIDClient) -> String { client.source == .configuration ? "config" : "database" }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a database client; its grants end at once.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The client id.") var id: String

        func run() throws {
            try reportingFailures {
                let clients = try openIDClients(options)
                try refuseConfigured(id, in: clients)
                guard try clientWorded(id, { try clients.remove(id) }) else { throw CommandFailure("frontdoor: no client \(id)") }
                print("removed client \(id)")
            }
        }
    }

    struct RotateSecret: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret", abstract: "Give a database client a new secret (printed once on stdout); the old one stops working.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The client id.") var id: String

        func run() throws {
            try reportingFailures {
                let clients = try openIDClients(options)
                try refuseConfigured(id, in: clients)
                guard let client = try clients.client(id) else { throw CommandFailure("frontdoor: no client \(id)") }
                guard !client.isPublic else { throw CommandFailure("frontdoor: client \(id) is public: it has no secret") }
                print(try clientWorded(id) { try clients.rotateSecret(id) })
            }
        }
    }
}

/// The clients: the config file's (`oidc.clients`) and the database's.
private func openIDClients(_ options: ConfigOptions) throws -> OpenIDClients {
    let configuration = try options.load()
    let services = try Bootstrap.makeApp(configuration).services
    return OpenIDClients(database: services.database, clock: services.clock, random: services.random, configured: configuration.openID.clients)
}

/// "edit the file" for a client of the config file.
private func refuseConfigured(_ id: String, in clients: OpenIDClients) throws {
    guard let client = try clients.client(id), client.source == .configuration else { return }
    throw CommandFailure("frontdoor: client \(id) is in the config file (oidc.clients): edit the file to change or remove it")
}

/// Runs a client operation, wording OpenIDError as one line.
private func clientWorded<T>(_ id: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as OpenIDError {
        switch error {
        case .clientExists: throw CommandFailure("frontdoor: a client \(id) exists already (in the config file or the database)")
        case .unknownClient: throw CommandFailure("frontdoor: no client \(id)")
        case .notADatabaseClient: throw CommandFailure("frontdoor: client \(id) is in the config file (oidc.clients): edit the file to change or remove it")
        default: throw CommandFailure("frontdoor: \(error)")
        }
    }
}
