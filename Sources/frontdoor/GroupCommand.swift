// GroupCommand.swift: `frontdoor group add|remove|list`: the operator's groups (AccountCore's Groups), which nginx's
// `FRONTDOOR_ALLOW group:NAME` admits and the gate's `Remote-Groups` names. Members: `frontdoor user groups`.
//
// Options: remove [--force] (a group with members is removed only with it: they lose its locations at once, on
// every host); list [--json]. Names: GroupName (ASCII letters, digits, - _ . : @ + /; compared without case).
// Every change is audited as "frontdoor-cli" from "local". Failures: one line on stderr, exit 1; usage errors exit 64.
import AccountCore
import ArgumentParser
import Foundation

struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Manage groups: add, remove, list (members: frontdoor user groups).",
        subcommands: [Add.self, Remove.self, List.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a group.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The group's name: letters, digits and - _ . : @ + / (at most 64).") var name: String

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let made = try worded { try services.groups.add(name: name, client: operatorClient) }
                print("created group \(made)")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a group; one that has members only with --force (they lose its locations at once).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The group's name (any case).") var name: String
        @Flag(help: "Remove the group even though it has members, and their memberships with it.") var force = false

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let removed = try worded { try services.groups.remove(name: name, force: force, client: operatorClient) }
                print("removed group \(removed.name)\(removed.members > 0 ? " and its \(removed.members) membership(s)" : "")")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List groups by name, with their member counts.")
        @OptionGroup var options: ConfigOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let groups = try makeServices(options).groups.list()
                if json {
                    return try JSONValue.array(groups.map { group in
                        .object(["name": .string(group.name), "members": .int(Int64(group.members)), "createdAt": .date(group.createdAt)])
                    }).print()
                }
                if groups.isEmpty { return print("no groups") }
                printTable(["NAME", "MEMBERS", "CREATED"], groups.map { [$0.name, String($0.members), iso($0.createdAt)] })
            }
        }
    }
}
