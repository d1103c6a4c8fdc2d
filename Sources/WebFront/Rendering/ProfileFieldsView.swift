// ProfileFieldsView.swift: the operator's declared profile fields as template values for `partials/field`
// (label from config, input type, kept value, error sentence), shown by the sign-up and profile pages.
import AccountRules

/// Template values for declared fields: `{{#profile_fields}}{{> partials/field}}{{/profile_fields}}`.
enum ProfileFieldsView {
    /// One entry per field, in declaration order: name, label (the catalog's `field_<name>` when an operator set one for
    /// the language, else the configured label), type, autocomplete, value, error, invalid, hint, readonly, autofocus.
    /// Every key is set (false when absent) so that the partial never picks up a value of the enclosing page.
    static func fields(_ declared: [ProfileField], form: [String: String], errors: ValidationErrors = ValidationErrors(),
                       catalog: MessageCatalog) -> [[String: Any]] {
        declared.map { field in
            let messages = errors.messages(for: field.name, in: catalog)
            let error: Any = messages.isEmpty ? false as Any : messages.joined(separator: "; ") as Any
            return [
                "name": field.name, "label": catalog.displayName(of: field.name, fallback: field.field.displayName),
                "type": field.inputType, "autocomplete": field.autocomplete,
                "value": form[field.name] ?? "",
                "error": error,
                "invalid": !messages.isEmpty, "hint": false, "readonly": false,
                "optional": !field.isRequired, "autofocus": field.name == errors.fieldNames.first,
            ]
        }
    }
}
