// FormView.swift: a form's inputs as template values for `partials/field`: label, kept value, error sentence.
import AccountRules

/// One input of a page's form.
struct InputSpec: Sendable {
    var name: String
    var type: String
    var autocomplete: String
    /// Whether an entered value is shown again (never for passwords).
    var keepsValue: Bool
    /// Catalog key of a hint shown under the input when there is no error.
    var hintKey: String?
    var hintArguments: [String: String] = [:]
    /// May be left empty (the input is not marked `required`).
    var optional = false
    /// Catalog key of the label (and of the field's name in its error messages); nil: `field_<name>`.
    var labelKey: String?

    static func email(autocomplete: String) -> InputSpec {
        InputSpec(name: "email", type: "email", autocomplete: autocomplete, keepsValue: true)
    }

    static func password(_ name: String, autocomplete: String, hintKey: String? = nil, hintArguments: [String: String] = [:],
                         labelKey: String? = nil) -> InputSpec {
        InputSpec(name: name, type: "password", autocomplete: autocomplete, keepsValue: false, hintKey: hintKey, hintArguments: hintArguments,
                  labelKey: labelKey)
    }
}

/// Template values for re-showing a form: `{{#fields.email}}{{> partials/field}}{{/fields.email}}`.
enum FormView {
    /// `["fields": [name: [name, label, type, autocomplete, value, optional, autofocus, error?, invalid?, hint?]]]`.
    static func fields(_ inputs: [InputSpec], form: [String: String], errors: ValidationErrors = ValidationErrors(),
                       catalog: MessageCatalog) -> [String: Any] {
        var fields: [String: Any] = [:]
        let labels = Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, catalog.text($0.labelKey ?? "field_" + $0.name)) })
        for input in inputs {
            var field: [String: Any] = [
                "name": input.name, "type": input.type, "autocomplete": input.autocomplete,
                "label": labels[input.name] ?? input.name,
                "value": input.keepsValue ? (form[input.name] ?? "") : "",
                "optional": input.optional,
                // Focus lands on the first field with a problem (the page's error summary says there are problems).
                "autofocus": input.name == errors.fieldNames.first,
            ]
            let messages = errors.messages(for: input.name, in: catalog, labels: labels)
            if !messages.isEmpty {
                field["error"] = messages.joined(separator: "; ")
                field["invalid"] = true
            }
            if let hintKey = input.hintKey { field["hint"] = catalog.text(hintKey, input.hintArguments) }
            fields[input.name] = field
        }
        return ["fields": fields]
    }
}
