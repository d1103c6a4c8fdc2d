// EmailFormat.swift: what counts as a well-formed email address, and how addresses compare.

/// The address syntax Frontdoor accepts: `local@domain` with a dotted domain, no spaces or control characters.
///
/// Deliberately stricter than RFC 5322 (no quoted local parts, no comments, no IP literals): what a
/// person types into a form and a mail server accepts.
public enum EmailFormat {
    /// The longest address accepted, per RFC 5321's path limit.
    public static let maximumLength = 254

    /// True when `address` is a plausible email address.
    public static func isValid(_ address: String) -> Bool {
        guard address.utf8.count <= maximumLength else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty else { return false }
        guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
        let localAllowed = Set("!#$%&'*+-/=?^_`{|}~.")
        guard local.allSatisfy({ $0.isLetter || $0.isNumber || localAllowed.contains($0) }) else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
            guard label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return false }
        }
        return true
    }

    /// The form used to compare addresses: `A@B.C` and `a@b.c` are the same address.
    public static func normalized(_ address: String) -> String {
        address.trimmingWhitespace().lowercased()
    }
}

extension String {
    /// The string without leading and trailing white space (no Foundation needed).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
