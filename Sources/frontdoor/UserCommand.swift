// UserCommand.swift: `frontdoor user add|list|show|confirm|lock|unlock|delete|set-password`: accounts, for the operator.
//
// Options: add [--confirmed]; list [--search TEXT] [--limit N] [--json]; show [--json]; lock [--for DURATION]
// (default: lockout.duration); delete --yes. ACCOUNT is an address (any of the account's, any case) or a numeric id.
// Passwords are read at a prompt without echo, or as one line on stdin; never from the command line.
// Every change is audited as "frontdoor-cli" from "local". Failures: one line on stderr, exit 1; usage errors exit 64.
import AccountCore
import ArgumentParser
import Foundation

struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts: add, list, show, confirm, lock, unlock, delete, set a password.",
        subcommands: [Add.self, List.self, Show.self, Confirm.self, Lock.self, Unlock.self, Delete.self, SetPassword.self,
                      Groups.self, Username.self,
                      TwoFactor.self, SendReset.self, ResendConfirmation.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; the password is asked for (no echo) or read as one line from stdin.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The account's email address.") var email: String
        @Flag(help: "Mark the address as already confirmed.") var confirmed = false

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let password = try readPassword()
                let id = try worded {
                    try services.administration.add(email: email, password: password, confirmed: confirmed, client: operatorClient)
                }
                print("created account \(id) for \(email.trimmingCharacters(in: .whitespaces))\(confirmed ? " (confirmed)" : "")")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts, oldest first.")
        @OptionGroup var options: ConfigOptions
        @Option(help: "Only accounts with an address containing this text.") var search: String?
        @Option(help: "At most this many accounts.") var limit = 100
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                try checkLimit(limit)
                let accounts = try makeServices(options).administration.list(search: search, limit: limit)
                if json { return try JSONValue.array(accounts.map(summaryJSON)).print() }
                if accounts.isEmpty { return print("no accounts") }
                printTable(["ID", "EMAIL", "USERNAME", "CONFIRMED", "LOCKED UNTIL", "CREATED", "LAST SIGN-IN"], accounts.map { account in
                    [String(account.id), account.email, account.username ?? "-", account.confirmed ? "yes" : "no", iso(account.lockedUntil),
                     iso(account.createdAt), iso(account.lastSignIn, or: "never")]
                })
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an account: addresses, lock, live sessions, sign-in methods, the OpenID apps it allowed, the last 10 audit rows.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let detail = try worded { try services.administration.show(accountId: try services.account(account)) }
                let apps = try services.openID.connectedApps(accountID: detail.account.id)
                if json {
                    return try JSONValue.object([
                        "account": summaryJSON(detail.account),
                        "addresses": .array(detail.addresses.map { address in
                            .object(["address": .string(address.address), "primary": .bool(address.isPrimary),
                                     "verifiedAt": .date(address.verifiedAt), "createdAt": .date(address.createdAt)])
                        }),
                        "liveSessions": .int(Int64(detail.liveSessions)),
                        "signInMethods": .array(detail.signInMethods.map { .string(methodName($0)) }),
                        "connectedApps": .array(apps.map { app in
                            .object(["client": .string(app.clientID), "scopes": .array(app.scopes.map { .string($0) }),
                                     "grantedAt": .date(app.grantedAt), "lastUsedAt": .date(app.lastUsedAt)])
                        }),
                        "recentAudit": .array(detail.recentAudit.map(auditJSON)),
                    ]).print()
                }
                let summary = detail.account
                print("account \(summary.id): \(summary.email)")
                print("username      \(summary.username ?? "none yet")")
                print("created       \(iso(summary.createdAt))")
                print("last sign-in  \(iso(summary.lastSignIn, or: "never"))")
                print("locked until  \(iso(summary.lockedUntil, or: "not locked"))")
                print("live sessions \(detail.liveSessions)")
                print("signs in with \(methodSummary(detail.signInMethods))")
                print("apps          \(apps.isEmpty ? "none" : apps.map { "\($0.clientID) (\($0.scopes.joined(separator: " ")))" }.joined(separator: ", "))")
                print("addresses:")
                for address in detail.addresses {
                    let state = address.verifiedAt.map { "verified \(iso($0))" } ?? "unverified"
                    print("  \(address.address)\(address.isPrimary ? " (primary)" : ""): \(state)")
                }
                print("recent audit:")
                if detail.recentAudit.isEmpty { print("  none") }
                for entry in detail.recentAudit {
                    print("  \(iso(entry.createdAt))  \(entry.event)  \(entry.remoteAddress)\(entry.detail.isEmpty ? "" : "  \(entry.detail)")")
                }
            }
        }
    }

    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark every unverified address of an account verified.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Option(help: "Why you vouch for the addresses (kept in the audit trail, as the admin pages ask).") var reason: String?

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                let confirmed = try worded {
                    try reason.map { try services.administration.confirm(accountId: id, reason: $0, client: operatorClient) }
                        ?? services.administration.confirm(accountId: id, client: operatorClient)
                }
                print(confirmed.isEmpty ? "every address of \(account) was already confirmed" : "confirmed \(confirmed.joined(separator: ", "))")
            }
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lock an account: its sessions end and sign-in fails, even with the right password.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Option(name: .customLong("for"), help: "How long: 15m, 2h, 1d, 1w. Default: lockout.duration.") var duration: String?

        func run() throws {
            try reportingFailures {
                let seconds = try duration.map { try parseDuration($0, option: "--for") }
                let services = try makeServices(options)
                let id = try services.account(account)
                try services.lockout.lock(accountId: id, for: seconds, client: operatorClient)
                print("locked \(account) until \(iso(try services.lockout.lockedUntil(accountId: id)))")
            }
        }
    }

    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift an account's lock and forget its failed sign-ins.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                try services.lockout.unlock(accountId: try services.account(account), client: operatorClient)
                print("unlocked \(account)")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account with its addresses, sessions and tokens (needs --yes).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Flag(help: "Really delete.") var yes = false

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                guard yes else { throw CommandFailure("frontdoor: deleting \(account) cannot be undone; add --yes to delete it") }
                let email = try worded { try services.administration.delete(accountId: id, client: operatorClient) }
                print("deleted account \(id) (\(email))")
            }
        }
    }

    struct SetPassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-password",
            abstract: "Give an account a new password (asked for, or one line on stdin) and end its sessions.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                let password = try readPassword()
                let ended = try worded { try services.administration.setPassword(accountId: id, password: password, client: operatorClient) }
                print("password of \(account) changed; \(ended) session(s) ended")
            }
        }
    }
}

private func summaryJSON(_ account: AccountSummary) -> JSONValue {
    .object(["id": .int(account.id), "email": .string(account.email), "username": .text(account.username),
             "confirmed": .bool(account.confirmed),
             "lockedUntil": .date(account.lockedUntil), "createdAt": .date(account.createdAt), "lastSignIn": .date(account.lastSignIn)])
}

/// One audit row as JSON (shared with `audit list`).
func auditJSON(_ entry: AuditEntry) -> JSONValue {
    .object(["id": .int(entry.id), "createdAt": .date(entry.createdAt), "event": .string(entry.event),
             "accountId": entry.accountId.map(JSONValue.int) ?? .null, "email": .text(entry.email),
             "remoteAddress": .string(entry.remoteAddress), "userAgent": .string(entry.userAgent), "detail": .string(entry.detail),
             "actorId": entry.actorId.map(JSONValue.int) ?? .null])
}

/// A sign-in method as `user show --json` names it: password, provider:NAME, one-time-codes, passkey.
private func methodName(_ method: SignInMethod) -> String {
    switch method {
    case .password: "password"
    case .provider(let name): "provider:\(name)"
    case .oneTimeCode: "one-time-codes"
    case .passkey: "passkey"
    }
}

/// `user show`'s line: "password, provider:github; second factor: one-time codes, 2 passkeys" (or "none").
private func methodSummary(_ methods: [SignInMethod]) -> String {
    let passkeys = methods.filter { if case .passkey = $0 { true } else { false } }.count
    let alone = methods.filter { $0.signsInAlone && !$0.countsAsSecondFactor }.map(methodName)
    var factors = methods.contains(.oneTimeCode) ? ["one-time codes"] : []
    if passkeys > 0 { factors.append(passkeys == 1 ? "1 passkey" : "\(passkeys) passkeys") }
    return (alone.isEmpty ? "no password or provider" : alone.joined(separator: ", "))
        + "; second factor: " + (factors.isEmpty ? "none" : factors.joined(separator: ", "))
}
