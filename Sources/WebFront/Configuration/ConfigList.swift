// ConfigList.swift: how the config's lists of mappings are read (`profile.fields`, `social.providers`): an empty or
// null value is no items; otherwise a list of at most `maximum` mappings, each with known options only, and no two
// items with the same name. Errors name the key, the item's position or name, and the option.
import Yams

enum ConfigList {
    /// The items under `key`, each parsed by `item` (given its node and 1-based position) and named by `name`.
    /// `noun` ("fields") and `first` (the naming option, "name") word the errors.
    static func parse<Item>(_ node: Node, key: String, noun: String, first: String, maximum: Int, name: (Item) -> String,
                            item: (Node, Int) throws -> Item) throws -> [Item] {
        if let scalar = node.scalar {
            guard node.null != nil || scalar.string.isEmpty else { throw ConfigError("\(key): expected a list of \(noun) (- \(first): …)") }
            return []
        }
        guard let sequence = node.sequence else { throw ConfigError("\(key): expected a list of \(noun) (- \(first): …)") }
        guard sequence.count <= maximum else { throw ConfigError("\(key): at most \(maximum) \(noun)") }
        var items: [Item] = []
        for (index, node) in sequence.enumerated() {
            let parsed = try item(node, index + 1)
            guard !items.contains(where: { name($0) == name(parsed) }) else { throw ConfigError("\(key).\(name(parsed)): declared twice") }
            items.append(parsed)
        }
        return items
    }

    /// One item's options by name; a non-mapping item (`example` shows a mapping) and unknown options are refused.
    static func options(_ node: Node, key: String, position: Int, known: [String], example: String) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw ConfigError("\(key)[\(position)]: expected a mapping such as \(example)") }
        var options: [String: Node] = [:]
        for (optionNode, value) in mapping {
            let option = optionNode.string ?? ""
            guard known.contains(option) else {
                throw ConfigError("\(key)[\(position)]: unknown option \(option) (known: \(known.joined(separator: ", ")))")
            }
            options[option] = value
        }
        return options
    }
}
