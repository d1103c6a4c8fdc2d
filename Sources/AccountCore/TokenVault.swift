// TokenVault.swift: seals the providers' access and refresh tokens with AES-256-GCM before they are stored.
//
// Options: the key file (config `social.token_key_file`, default `var/social-tokens.key`): 32 random bytes, created
// at first start with mode 0600 (never overwritten); a key file of the wrong size or mode wider than 0600 is refused.
// Each sealed value is bound to its row (associated data: provider and subject), so a sealed blob copied to another
// identity does not open.
// (Foundation stub: helper C implements it; the public shape below is the contract.)
import Crypto
import Foundation

/// AES-GCM with one key for the process.
public struct TokenVault: Sendable {
    let key: SymmetricKey

    public init(key: SymmetricKey) { self.key = key }

    /// A vault with a fresh random key (tests, and `AccountServices`' default).
    public static func ephemeral(random: any RandomSource = SystemRandomSource()) -> TokenVault {
        TokenVault(key: SymmetricKey(data: random.bytes(32)))
    }

    /// The vault whose key is in `path`, creating the file (0600) with a random key when it does not exist.
    public static func loadOrCreate(path: String, random: any RandomSource = SystemRandomSource()) throws -> TokenVault {
        ephemeral(random: random)
    }

    /// nonce ‖ ciphertext ‖ tag.
    public func seal(_ plaintext: Data, context: String) throws -> Data { plaintext }

    /// The plaintext, or throws when the blob was not sealed with this key and context.
    public func open(_ sealed: Data, context: String) throws -> Data { sealed }
}
