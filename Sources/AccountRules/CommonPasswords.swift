// CommonPasswords.swift: passwords too common to accept, whatever their length (OWASP ASVS 2.1.7).
//
// Options: `password.blocklist_file` (server config): a file with one password per line, such as a list of the most
// common breached passwords, added to the built-in list at start. Compared without case and surrounding spaces.
// Also refused: one character repeated, and runs along the digits, the alphabet or a keyboard row ("1234567890123",
// "qwertyuiopas"). The built-in list holds only passwords that pass the default length (AccountForms.defaultPasswordLength).

/// A set of refused passwords plus the pattern checks; `Rule.notCommon` uses it.
public struct CommonPasswords: Sendable {
    private let refused: Set<String>

    /// The built-in list and `more` (for example a breached-password file's lines).
    public init<S: Sequence>(adding more: S = [String]()) where S.Element == String {
        refused = Set((Self.builtInList + more).map(Self.normalized).filter { !$0.isEmpty })
    }

    /// The built-in list alone.
    public static let builtIn = CommonPasswords()

    /// How many passwords the list refuses by name.
    public var count: Int { refused.count }

    /// True when `password` is on the list, a single repeated character, or a run along a common sequence.
    public func contains(_ password: String) -> Bool {
        let normalized = Self.normalized(password)
        guard !normalized.isEmpty else { return false }
        if refused.contains(normalized) || Set(normalized).count == 1 { return true }
        return Self.sequences.contains { isRun(normalized, along: $0) }
    }

    /// True when every character follows the previous one along `sequence` (either way, wrapping around).
    private func isRun(_ text: String, along sequence: [Character]) -> Bool {
        let positions = text.map { sequence.firstIndex(of: $0) }
        guard positions.allSatisfy({ $0 != nil }), positions.count > 1 else { return false }
        let steps = zip(positions.dropFirst(), positions).map { ($0! - $1! + sequence.count) % sequence.count }
        return steps.allSatisfy { $0 == 1 } || steps.allSatisfy { $0 == sequence.count - 1 }
    }

    static func normalized(_ text: String) -> String {
        text.trimmingWhitespace().lowercased()
    }

    static let sequences: [[Character]] = ["0123456789", "abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl", "zxcvbnm",
                                           "qwertzuiop", "azertyuiop"].map(Array.init)

    /// Long passwords that top the published breach lists, or are built from their patterns.
    static let builtInList = [
        "123456789012", "1234567890123", "12345678901234", "123456123456", "123123123123", "111222333444",
        "password1234", "password12345", "password123456", "passwordpassword", "password!234", "passw0rd1234",
        "p@ssw0rd1234", "p@ssword1234", "mypassword123", "mypassword1234", "thisismypassword", "changeme1234",
        "qwerty123456", "qwertyuiop12", "qwertyuiop123", "qwerty12345678", "1q2w3e4r5t6y", "1q2w3e4r5t6y7u",
        "q1w2e3r4t5y6", "1qaz2wsx3edc", "1qaz2wsx3edc4rfv", "zaq12wsxcde3", "qazwsxedcrfv", "qazwsxedc123",
        "123qweasdzxc", "1234qwerasdf", "asdfasdfasdf", "asdf1234asdf", "abc123abc123", "abcd1234abcd",
        "iloveyou1234", "iloveyou12345", "welcome12345", "welcome123456", "letmein12345", "administrator",
        "administrator1", "admin1234567", "football1234", "baseball1234", "basketball12", "superman1234",
        "batman123456", "starwars1234", "pokemon12345", "princess1234", "sunshine1234", "monkey123456",
        "dragon123456", "shadow123456", "master123456", "michael12345", "whatever1234", "trustno1trustno1",
        "correcthorsebatterystaple", "correct horse battery staple", "iloveyouiloveyou", "loveyou12345",
        "computer1234", "internet1234", "qwertyqwerty", "asdfghjkl123", "zxcvbnm12345", "aaaaaa111111",
        "secret123456", "login1234567", "default12345", "temp12345678", "test12345678", "testtesttest",
    ]
}

extension Rule {
    /// Not on `list` and not a repeated character or a run (see `CommonPasswords`): key `common_password`. Checked only
    /// for a value whose length is within `length`, so a too short or too long password gets one message, not two.
    public static func notCommon(_ list: CommonPasswords, within length: ClosedRange<Int>) -> Rule {
        Rule { value, _ in length.contains(value.count) && list.contains(value) ? FieldError(key: "common_password") : nil }
    }
}
