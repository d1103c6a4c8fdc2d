// TokenVault+Shared.swift: one token key for every host of a database. The key stays in its file
// (`social.token_key_file`, kept apart from the database so a stolen dump or backup holds no provider tokens), but
// the database remembers a check of it, so a host whose file holds another key refuses to start instead of sealing
// what the other hosts cannot open (a flow begun on host A carrying an invitation, called back on host B; tokens
// stored by A, asked for on B).
//
// Options: the key file's path (as `loadOrCreate(path:)`), the database. The check is HMAC-SHA256(key,
// "frontdoor-token-vault-check-v1"), stored as the server value `socialTokenKeyCheck`: it tells keys apart and says
// nothing about the key. The first host to start records its key's check; a host without a key file makes one only
// while the database has no check yet. `frontdoor keys forget-token-key` forgets the check, on purpose, to start over
// with another key (provider tokens sealed with the old one are then lost: people sign in with their provider again).
import Crypto
import Foundation

extension TokenVault {
    /// The name the key's check is stored under (`serverSecret`).
    public static let checkName = "socialTokenKeyCheck"

    /// A value that tells this key from others and reveals nothing of it.
    public var check: [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data("frontdoor-token-vault-check-v1".utf8), using: key))
    }

    /// The vault whose key is in `path`, the one every host sharing `database` uses: made (as `loadOrCreate(path:)`)
    /// only while the database has no check yet, then its check recorded, or compared with the recorded one.
    ///
    /// ```swift
    /// let vault = try TokenVault.loadShared(path: configuration.social.tokenKeyFile, database: database)
    /// ```
    /// - Throws: `TokenVaultError` when the file is missing while another host's check is recorded, or holds another
    ///   key than the recorded one (and as `loadOrCreate(path:)` for a file of the wrong size or mode).
    public static func loadShared(path: String, database: AppDatabase, random: any RandomSource = SystemRandomSource()) throws -> TokenVault {
        let recorded = try database.storedValue(named: checkName)
        if recorded != nil, !FileManager.default.fileExists(atPath: path) {
            throw TokenVaultError("\(path): missing, but this database has a token key already (made at the first host's first "
                                  + "start): copy that key file here (mode 600) from another host or a backup; or run `frontdoor keys "
                                  + "forget-token-key` to start over with a new key (provider tokens stored so far are then lost)")
        }
        let vault = try loadOrCreate(path: path, random: random)
        // Of two hosts making their first keys at the same moment the first to commit wins; the other is refused below.
        guard try database.agreedValue(named: checkName, proposing: vault.check) == vault.check else {
            throw TokenVaultError("\(path): holds another key than the one this database's provider tokens are sealed with: copy "
                                  + "the right key file here (mode 600) from another host or a backup; or, to start over with this "
                                  + "key (provider tokens stored so far are then lost), run `frontdoor keys forget-token-key`")
        }
        return vault
    }

    /// Forgets the recorded check (`frontdoor keys forget-token-key`): the next host to start records its own key.
    /// True when there was one.
    @discardableResult
    public static func forgetSharedKey(database: AppDatabase) throws -> Bool {
        try database.forgetValue(named: checkName)
    }
}
