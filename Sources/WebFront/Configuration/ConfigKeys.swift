// ConfigKeys.swift: what a config key is (name, type, meaning, how it is parsed from text and written back) and the
// parsing of the value types. The keys themselves, each with its meaning, are the key table: ConfigKeys+Table.swift.
// A key's default is the value AppConfiguration() holds (for AccountCore's keys, CoreConfiguration's), written once there;
// the table reads it back (`defaultValue`), so docs/configuration.md's table and `config check --verbose` never restate it.
import AccountCore
import Foundation

/// One config key: its dotted name, its type, what it means, how to set it from text, how to show it.
struct ConfigKey: Sendable {
    let name: String
    /// What the value is written as ("duration", "whole number", "`auto` or `always`"…).
    let type: String
    /// What the key does, in one line of Markdown (the "meaning" column of docs/configuration.md's table).
    let meaning: String
    /// How the default reads when it is computed rather than a value (`<base_path>/static`); nil: `defaultValue`.
    let computedDefault: String?
    let apply: @Sendable (inout AppConfiguration, String) throws -> Void
    let read: @Sendable (AppConfiguration) -> String

    init(_ name: String, type: String, _ meaning: String, computedDefault: String? = nil,
         apply: @escaping @Sendable (inout AppConfiguration, String) throws -> Void, read: @escaping @Sendable (AppConfiguration) -> String) {
        self.name = name
        self.type = type
        self.meaning = meaning
        self.computedDefault = computedDefault
        self.apply = apply
        self.read = read
    }

    /// The key's built-in value, as `config check` prints it (AppConfiguration's initial value).
    var defaultValue: String { read(AppConfiguration()) }
}

/// The builders of the key table's rows, and the value types' parsing.
enum ConfigKeys {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
    static let logFormats = ["text", "json"]

    static func text(_ name: String, _ path: WritableKeyPath<AppConfiguration, String> & Sendable, _ meaning: String,
                     type: String = "text", computedDefault: String? = nil) -> ConfigKey {
        ConfigKey(name, type: type, meaning, computedDefault: computedDefault, apply: { $0[keyPath: path] = $1 }, read: { $0[keyPath: path] })
    }

    static func integer(_ name: String, _ path: WritableKeyPath<AppConfiguration, Int> & Sendable, _ meaning: String) -> ConfigKey {
        ConfigKey(name, type: "whole number", meaning, apply: { $0[keyPath: path] = try parseInteger($1) }, read: { String($0[keyPath: path]) })
    }

    static func unsigned(_ name: String, _ path: WritableKeyPath<AppConfiguration, UInt32> & Sendable, _ meaning: String) -> ConfigKey {
        ConfigKey(name, type: "whole number", meaning, apply: { c, v in
            guard let n = UInt32(exactly: try parseInteger(v)) else { throw ConfigError("must be a positive whole number") }
            c[keyPath: path] = n
        }, read: { String($0[keyPath: path]) })
    }

    static func duration(_ name: String, _ path: WritableKeyPath<AppConfiguration, TimeInterval> & Sendable, _ meaning: String) -> ConfigKey {
        ConfigKey(name, type: "duration", meaning, apply: { $0[keyPath: path] = try parseDuration($1) },
                  read: { formatDuration($0[keyPath: path]) })
    }

    static func flag(_ name: String, _ path: WritableKeyPath<AppConfiguration, Bool> & Sendable, _ meaning: String) -> ConfigKey {
        ConfigKey(name, type: "true or false", meaning, apply: { c, v in
            switch v.lowercased() {
            case "true", "yes", "on", "1": c[keyPath: path] = true
            case "false", "no", "off", "0": c[keyPath: path] = false
            default: throw ConfigError("must be true or false")
            }
        }, read: { $0[keyPath: path] ? "true" : "false" })
    }

    /// A key whose value is one of `Choice`'s raw values.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<AppConfiguration, Choice> & Sendable, _ meaning: String
    ) -> ConfigKey where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let wording = orList(names)
        return ConfigKey(name, type: orList(names.map { "`\($0)`" }), meaning, apply: { c, v in
            guard let value = Choice(rawValue: v) else { throw ConfigError("must be \(wording)") }
            c[keyPath: path] = value
        }, read: { $0[keyPath: path].rawValue })
    }

    /// "a, b or c".
    static func orList(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    static func parseInteger(_ text: String) throws -> Int {
        guard let n = Int(text), n >= 0 else { throw ConfigError("must be a whole number") }
        return n
    }

    /// "90" or "90s", "15m", "12h", "30d" → seconds.
    static func parseDuration(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = text, factor = 1.0
        if let last = text.last, let unit = units[last] { number = String(text.dropLast()); factor = unit }
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw ConfigError("must be a duration such as 90s, 15m, 12h or 30d")
        }
        return value * factor
    }

    /// Seconds in the largest unit that divides them exactly.
    static func formatDuration(_ seconds: TimeInterval) -> String {
        for (unit, size) in [("d", 86400.0), ("h", 3600), ("m", 60)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
