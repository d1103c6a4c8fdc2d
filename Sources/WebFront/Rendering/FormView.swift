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

    static func email(autocomplete: String) -> InputSpec {
        InputSpec(name: "email", type: "email", autocomplete: autocomplete, keepsValue: true)
    }

    static func password(_ name: String, autocomplete: String, hintKey: String? = nil, hintArguments: [String: String] = [:]) -> InputSpec {
        InputSpec(name: name, type: "password", autocomplete: autocomplete, keepsValue: false, hintKey: hintKey, hintArguments: hintArguments)
    }
}

/// Template values for re-showing a form: `{{#fields.email}}{{> partials/field}}{{/fields.email}}`.
enum FormView {
    /// `["fields": [name: [name, label, type, autocomplete, value, error?, invalid?, hint?]]]`.
    static func fields(_ inputs: [InputSpec], form: [String: String], errors: ValidationErrors = ValidationErrors(),
                       catalog: MessageCatalog) -> [String: Any] {
        var fields: [String: Any] = [:]
        for input in inputs {
            var field: [String: Any] = [
                "name": input.name, "type": input.type, "autocomplete": input.autocomplete,
                "label": catalog.text("field_" + input.name),
                "value": input.keepsValue ? (form[input.name] ?? "") : "",
                "optional": input.optional,
            ]
            let messages = errors.messages(for: input.name, in: catalog)
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
