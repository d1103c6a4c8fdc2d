// Dictionary+Localized.swift: template values given as catalog keys, worded in the page's catalog.

extension Dictionary where Key == String, Value == String {
    /// The same keys with each value (a catalog key) replaced by its text.
    func localized(_ context: RequestContext) -> [String: Any] {
        mapValues { context.catalog.text($0) }
    }
}
