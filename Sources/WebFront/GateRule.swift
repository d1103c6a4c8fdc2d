// GateRule.swift: a protected location's allow rule, `FRONTDOOR_ALLOW` (a fastcgi_param of its gate location).
//
// The rule language. Entries are separated by spaces or commas; every entry is compared without case; a signed-in
// person is allowed when ANY entry matches (an empty or absent rule allows everyone signed in):
//   alice@example.com   that address
//   @example.org        every address at example.org (`example.org` alone says the same)
//   .example.net        every address at example.net or any of its subdomains
//   group:admins        every member of group admins (`frontdoor group add`, `frontdoor user groups --add`)
// Addresses and domains match only a verified primary address (with `confirmation.required` off an address may be
// unproven: it meets no entry, not even one naming it). A group entry matches by membership, which the operator
// gave the account, whatever its address. A word with another `kind:` prefix (a typo, or a kind of a later
// version), or with a `/` (a network), matches nobody: the rule fails closed, so a mistake refuses people instead
// of admitting them.
//
// What is not in it, and why:
// - A client network (CIDR). The entries are alternatives, so `10.0.0.0/8` would admit anyone signed in from the
//   office, and with open sign-up that is anyone with a mailbox. What operators ask for is "these people, and only
//   from there", which nginx says itself beside auth_request: `allow 10.0.0.0/8; deny all;` in the protected location
//   (nginx's default `satisfy all` needs both), with the client address nginx knows (set_real_ip_from).
// - How the person signed in. A later `FRONTDOOR_REQUIRE` (for example `2fa`) is a separate variable that composes
//   with this one by AND: ALLOW says who may enter, REQUIRE how they must have proved it; a person must meet both.
//   One who meets ALLOW but not REQUIRE is sent to prove more (like the 401 to sign in), not refused with 403. So
//   neither language needs the other's words, and no entry here will ever mean a way of signing in.

/// A location's allow rule, parsed once per request (it is a few words).
struct GateRule: Sendable, Equatable {
    /// One entry of the rule.
    enum Entry: Sendable, Equatable {
        case address(String)
        case domain(String)
        /// The domain and every subdomain of it (written with a leading dot).
        case domainAndSubdomains(String)
        case group(String)
        /// A `kind:value` word of no known kind: matches nobody.
        case unknown(String)
    }

    /// Who asks: the verified primary address (nil when there is none) and the account's groups.
    struct Person: Sendable, Equatable {
        var verifiedEmail: String?
        var groups: [String]
    }

    let entries: [Entry]

    init(_ text: String) {
        entries = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map { Self.entry(String($0).lowercased()) }
    }

    private static func entry(_ word: String) -> Entry {
        if word.hasPrefix("group:"), word.count > "group:".count { return .group(String(word.dropFirst("group:".count))) }
        if word.hasPrefix(".") { return .domainAndSubdomains(String(word.dropFirst())) }
        if word.hasPrefix("@") { return .domain(String(word.dropFirst())) }
        if word.contains("@") { return .address(word) }
        if word.contains(":") || word.contains("/") { return .unknown(word) }   // no domain has either (a network: see above)
        return .domain(word)
    }

    /// Whether `person` may enter: an empty rule admits everyone signed in; else any entry must match.
    func allows(_ person: Person) -> Bool {
        guard !entries.isEmpty else { return true }
        let email = person.verifiedEmail?.lowercased()
        let domain = email.map { String($0[$0.index(after: $0.lastIndex(of: "@") ?? $0.startIndex)...]) }
        let groups = Set(person.groups.map { $0.lowercased() })
        return entries.contains { entry in
            switch entry {
            case .address(let address): email == address
            case .domain(let name): domain == name
            case .domainAndSubdomains(let name): domain.map { $0 == name || $0.hasSuffix("." + name) } ?? false
            case .group(let name): groups.contains(name)
            case .unknown: false
            }
        }
    }
}
