// ConfigWarnings.swift: what `frontdoor config check` warns about in a configuration that is valid but risky, one line
// each on stderr (the exit status stays 0, and stdout stays the configuration, so scripts reading it are unaffected).
//
// Warned about:
//   signup: open   anyone who can receive mail at some address can make an account, and the gate admits every
//                  signed-in account to a protected location that names no FRONTDOOR_ALLOW rule. Fine for a public
//                  service, a surprise for an operator who meant "my team": the line says how to close it.
import AccountCore
import WebFront

enum ConfigWarnings {
    /// The warnings for `configuration`, each one line starting with `frontdoor: warning:`; empty when nothing is risky.
    static func lines(for configuration: AppConfiguration) -> [String] {
        var lines: [String] = []
        if configuration.signUp == .open {
            lines.append("frontdoor: warning: signup is open: anyone with a mailbox can make an account and enter every protected "
                         + "location whose gate has no FRONTDOOR_ALLOW rule; set signup: invite (or closed), or give each gate a "
                         + "FRONTDOOR_ALLOW rule (docs/protect-apps.md)")
        }
        return lines
    }
}
