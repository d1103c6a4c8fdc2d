// Validator.swift: fields with their rules, checked all at once into ValidationErrors.

/// A form field: its name in the form, the name people see, and its rules in order.
public struct Field: Sendable {
    public var name: String
    public var displayName: String
    public var rules: [Rule]

    public init(_ name: String, displayName: String, rules: [Rule]) {
        self.name = name
        self.displayName = displayName
        self.rules = rules
    }
}

/// Checks a form's values against its fields and returns every problem at once.
public struct Validator: Sendable {
    public var fields: [Field]

    public init(_ fields: [Field]) { self.fields = fields }

    /// Every failed rule, field by field in declaration order; empty when the values are valid.
    public func validate(_ values: [String: String]) -> ValidationErrors {
        var errors = ValidationErrors()
        for field in fields {
            let value = values[field.name] ?? ""
            for rule in field.rules {
                guard let error = rule.check(value, values) else { continue }
                errors.add(error, to: field.name, displayName: field.displayName)
                if rule.stopsFieldOnFailure { break }
            }
        }
        return errors
    }

    /// The field named `name`, if declared.
    public func field(named name: String) -> Field? { fields.first { $0.name == name } }

    /// A copy with `extra` fields appended (operator-declared profile fields).
    public func adding(_ extra: [Field]) -> Validator { Validator(fields + extra) }
}

/// The problems found in a form, kept in field order.
public struct ValidationErrors: Sendable, Equatable, Error {
    /// One problem: which field, its display name, and the failed rule.
    public struct Entry: Sendable, Equatable {
        public var field: String
        public var displayName: String
        public var error: FieldError
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// True when nothing failed.
    public var isEmpty: Bool { entries.isEmpty }

    /// Records that `error` applies to `field`.
    public mutating func add(_ error: FieldError, to field: String, displayName: String) {
        entries.append(Entry(field: field, displayName: displayName, error: error))
    }

    /// The names of the fields that failed, in order, each once.
    public var fieldNames: [String] {
        var seen = Set<String>()
        return entries.map(\.field).filter { seen.insert($0).inserted }
    }

    /// The failed rules' keys for `field`.
    public func keys(for field: String) -> [String] { entries.filter { $0.field == field }.map(\.error.key) }

    /// Full sentences for `field` ("Password is too short (minimum is 8 characters)"), worded by `catalog`. Fields are
    /// named as the form labels them (`labels`), else by the catalog's `field_<name>`, else by the display name given
    /// at validation; a confirmation names its other field the same way.
    public func messages(for field: String, in catalog: MessageCatalog, labels: [String: String] = [:]) -> [String] {
        entries.filter { $0.field == field }.map { entry in
            catalog.fullMessage(for: entry.error, displayName: labels[entry.field] ?? catalog.displayName(of: entry.field, fallback: entry.displayName),
                                labels: labels)
        }
    }
}
