// Username.swift: the rule for an account's username (what the gate sends apps as Remote-User), and the name made from an
// address for an account that never chose one. Shared by the server, the JSON API and FrontdoorClient.
//
// The rule: 1 to 32 characters, ASCII letters, digits, `.`, `_` and `-`, starting with a letter, ending with a letter
// or a digit, never two of `.`, `_`, `-` in a row (what Gitea accepts as a user name, so its reverse-proxy sign-in
// takes every Frontdoor username). Case is kept as typed but never tells two accounts apart (the database's unique
// index is on the lower-cased name).
// Why it starts with a letter: an app that keyed its users on the numeric account id (Remote-User before usernames)
// must never meet a username like `42` that names someone else's row. Why the reserved names: apps give some names
// powers (Grafana's and Gitea's `admin`, a system's `root`); a stranger who signs up as admin@gmail.com must not
// arrive at such an app as `admin`. Reserved names are refused when chosen and skipped when made from an address.
// Made from an address: the local part lower-cased, characters outside the rule dropped (`ann.lee+news` → `ann.leenews`),
// a run of marks kept as its first, marks at the end dropped, `u` put in front when it does not start with a letter,
// `user` when nothing is left; a clash or a reserved name gets
// `-2`, `-3` … (the store picks the first free one).

/// An account's username: the rule and the name made from an address.
public enum Username {
    /// The longest username, in characters.
    public static let maxLength = 32
    /// What a name made from an address falls back to when nothing of the local part is left.
    public static let fallback = "user"
    /// Names no account may have: apps commonly give them powers or treat them specially. Compared lower-cased.
    public static let reserved: Set<String> = [
        "admin", "administrator", "root", "superuser", "system", "sysadmin", "daemon", "nobody", "anonymous", "guest",
        "frontdoor", "postmaster", "hostmaster", "webmaster", "abuse", "security", "noreply", "no-reply", "null",
    ]

    /// The key two usernames are compared by (the database's unique index is on the same lower-casing: ASCII only).
    public static func key(_ name: String) -> String { name.lowercased() }

    /// Whether `character` may appear in a username.
    static func isAllowed(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_" || character == "-")
    }

    /// `.`, `_` or `-`: allowed between letters and digits only.
    static func isMark(_ character: Character) -> Bool { character == "." || character == "_" || character == "-" }

    /// The catalog key of what is wrong with `name` as a chosen username, or nil when it follows the rule (reserved names
    /// included; whether another account holds it is the store's question).
    public static func problem(_ name: String) -> FieldError? {
        if name.isEmpty { return FieldError(key: "blank") }
        if name.count > maxLength { return FieldError(key: "too_long", arguments: ["count": String(maxLength)]) }
        guard name.allSatisfy(isAllowed) else { return FieldError(key: "username_characters") }
        guard let first = name.first, first.isASCII, first.isLetter else { return FieldError(key: "username_start") }
        guard let last = name.last, !isMark(last), !zip(name, name.dropFirst()).contains(where: { isMark($0) && isMark($1) }) else {
            return FieldError(key: "username_marks")
        }
        if reserved.contains(key(name)) { return FieldError(key: "username_reserved") }
        return nil
    }

    /// The rules of a username form field: required when `required`, else an empty value passes (one is made).
    public static func rules(required: Bool) -> [Rule] {
        let check = Rule { value, _ in value.isEmpty ? nil : problem(value) }
        return required ? [.required, check] : [check]
    }

    /// The base name made from `address`'s local part (before any `-2` suffix); always follows the rule but may be
    /// reserved (the store then adds a suffix).
    public static func base(from address: String) -> String {
        let local = address.split(separator: "@", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var name = ""
        for character in local.lowercased() where isAllowed(character) {
            if isMark(character), name.last.map(isMark) ?? false { continue }
            name.append(character)
        }
        let prefixed = name.first.map { !$0.isLetter } ?? false
        if prefixed { name = "u" + name }
        name = String(name.prefix(maxLength))
        while let last = name.last, isMark(last) { name.removeLast() }
        // Nothing of the address left (`_@…`, `ë@…`): not a bare `u`.
        return name.isEmpty || (prefixed && name == "u") ? fallback : name
    }

    /// The `n`th candidate made from `base`: the base itself for 1, else `base-n`, cut so the whole fits `maxLength`.
    public static func candidate(_ base: String, _ n: Int) -> String {
        guard n > 1 else { return base }
        let suffix = "-\(n)"
        var cut = String(base.prefix(maxLength - suffix.count))
        while let last = cut.last, isMark(last) { cut.removeLast() }
        return cut + suffix
    }
}

extension Username {
    /// Whether people choose their username (config `identity.username`).
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// Made from the address at sign-up, shown read-only in settings.
        case off
        /// Sign-up and settings offer a username field; left empty, one is made from the address.
        case optional
        /// Sign-up asks for one; settings may change it.
        case required
    }
}
