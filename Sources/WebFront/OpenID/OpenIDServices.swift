// OpenIDServices.swift: what the OpenID Connect provider's routes share (configuration, issuer, signing keys), built once at start-up (Bootstrap.makeApp,
// like BrowserIDServices) and held by the site as `site.openID`; nil when `oidc.enabled` is false (every `oidc/…`
// route then answers 404).
// Options: the section `oidc` (AppConfiguration+OpenID.swift); the issuer is `public_url` + `base_path`, exactly.
// The grants themselves (codes, tokens, consent) are AccountCore's `services.openID`; the clients are AccountCore's
// `OpenIDClients` (the config's, handed in, then the database's).
import AccountCore
import Foundation

/// The provider's configuration, issuer, signing keys and clients.
public final class OpenIDServices: Sendable {
    public let configuration: AppConfiguration.OpenID
    /// `public_url` + `base_path`: every token's `iss`, and discovery's `issuer`, byte for byte.
    public let issuer: String
    /// The signing keys (SigningKeys purpose "openid", shared by every host through the database; `oidc.key_grace`).
    public let keys: OpenIDKeys

    public init(configuration: AppConfiguration.OpenID, issuer: String, keys: OpenIDKeys) {
        self.configuration = configuration
        self.issuer = issuer
        self.keys = keys
    }

    /// Built from the configuration, its keys in `database`; nil when the provider is off (`oidc.enabled: false`).
    /// Bootstrap makes the first key at start (`keys.ensureKey()`), as it does BrowserID's.
    public static func make(configuration: AppConfiguration, database: AppDatabase, clock: any Clock) -> OpenIDServices? {
        guard configuration.openID.enabled else { return nil }
        return OpenIDServices(configuration: configuration.openID, issuer: configuration.openIDIssuer,
                              keys: OpenIDKeys(database: database, clock: clock, grace: configuration.openID.keyGrace))
    }
}
