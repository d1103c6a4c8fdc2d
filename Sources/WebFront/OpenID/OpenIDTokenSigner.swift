// OpenIDTokenSigner.swift: the signing keys the token endpoint signs ID tokens with: the provider's OpenIDKeys (the
// jose helper's; kept in the database, shared by every host), made at the first signature with `oidc.key_grace`.
// TODO(i38 reconcile): sign with `site.openID.keys` once OpenIDServices holds the keys, and drop this file (the
// discovery pages make their OpenIDKeys the same way today: Routes+OpenIDJose.swift).
import AccountCore
import Foundation
import Locking

/// One OpenIDKeys per process for the token endpoint, made when first needed.
final class OpenIDTokenSigner: @unchecked Sendable {
    private let database: AppDatabase
    private let clock: any Clock
    private let made = Locked<OpenIDKeys?>(nil)

    init(_ core: AccountServices) {
        database = core.database
        clock = core.clock
    }

    /// The keys, with the retired keys' grace of `services`' configuration.
    func keys(_ services: OpenIDServices) -> OpenIDKeys {
        made.withLock { made in
            if let made { return made }
            let keys = OpenIDKeys(database: database, clock: clock, grace: services.configuration.keyGrace)
            made = keys
            return keys
        }
    }
}
