// PageRenderer.swift: loads the mustache templates once at start-up and renders pages with the common values.
import AccountRules
import Foundation
import Mustache

/// Renders `templates/*.mustache` (HTML-escaped by default). Loaded once; shared read-only by the worker threads.
public struct PageRenderer: Sendable {
    /// A template that is missing or fails to parse, named for the operator.
    public struct TemplateError: Error, CustomStringConvertible {
        public let description: String
    }

    private let library: MustacheLibrary
    /// Every message in every offered language, for templates as `{{t.key}}`.
    public let localization: Localization
    private let strings: [String: [String: String]]

    /// Loads every `.mustache` file under `directory`, named by relative path without the extension (`mail/welcome`).
    public init(directory: String, localization: Localization) throws {
        var library = MustacheLibrary()
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw TemplateError(description: "templates folder \(directory) cannot be read")
        }
        var count = 0
        for case let file as URL in files where file.pathExtension == "mustache" {
            let relative = file.standardizedFileURL.path.dropFirst(root.path.count + 1)
            let name = String(relative.dropLast(".mustache".count))
            do {
                try library.register(String(contentsOf: file, encoding: .utf8), named: name)
            } catch {
                throw TemplateError(description: "template \(file.path): \(error)")
            }
            count += 1
        }
        guard count > 0 else { throw TemplateError(description: "no .mustache templates in \(directory)") }
        self.library = library
        self.localization = localization
        self.strings = Dictionary(uniqueKeysWithValues: localization.languages.map { ($0, localization.catalog($0).strings) })
    }

    /// Renders template `name` with `values` plus `t` (the strings of `language`, or of the default language).
    public func render(_ name: String, _ values: [String: Any], language: String) throws -> String {
        var values = values
        values["t"] = strings[language] ?? strings[localization.defaultLanguage]
        guard let html = library.render(values, withTemplate: name) else {
            throw TemplateError(description: "no template named \(name)")
        }
        return html
    }
}
