// RecoveryCodes.swift: the ten single-use codes a person keeps for when the authenticator app is lost.
//
// Options: none. A code is 16 characters from an alphabet without look-alikes (no 0/o, 1/l/i), shown as
// `xxxx-xxxx-xxxx-xxxx`; typed back, case, spaces and dashes do not matter. Codes are shown once and stored as digests only.
// Why a fast digest (SHA-256) and not argon2 as for passwords: a code is 16 characters drawn uniformly from 31, about
// 79 bits chosen by the machine, not by a person; no dictionary helps, and finding one of an account's ten codes from a
// stolen database takes some 2^76 SHA-256 digests (tens of thousands of years of a GPU at 2·10^10 a second; at 12
// characters it was weeks), where a password's few guessable bits need a slow hash. Each digest also covers the account's id, so one
// table of precomputed digests cannot serve every account at once. Wrong codes count toward the account's lockout
// (the caller counts them), which bounds online guessing.
import Crypto
import Foundation

/// Making, normalizing and digesting recovery codes.
public enum RecoveryCodes {
    /// How many codes a person gets at a time.
    public static let count = 10
    /// Characters per code (without the dashes).
    public static let length = 16
    /// Lower-case letters and digits with the look-alikes left out (0, 1, i, l, o): 31 characters.
    static let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// `count` fresh codes from `random`, formatted `xxxx-xxxx-xxxx-xxxx`, all different.
    static func make(random: any RandomSource) -> [String] {
        var codes: [String] = []
        while codes.count < count {
            let code = formatted(String(characters(length, random: random)))
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// `n` characters drawn uniformly from the alphabet (bytes from 248 up are skipped so every character is equally likely).
    private static func characters(_ n: Int, random: any RandomSource) -> [Character] {
        var out: [Character] = []
        let limit = UInt8(256 / alphabet.count * alphabet.count)
        while out.count < n {
            for byte in random.bytes(n - out.count) where byte < limit {
                out.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return out
    }

    /// `abcdefghjkmnpqrs` as `abcd-efgh-jkmn-pqrs`.
    static func formatted(_ normalized: String) -> String {
        var out = ""
        for (index, character) in normalized.enumerated() {
            if index > 0 && index % 4 == 0 { out.append("-") }
            out.append(character)
        }
        return out
    }

    /// The code as stored for comparison (lower case, without spaces and dashes), or nil when `text` cannot be a
    /// recovery code (another length, or a character outside the alphabet).
    static func normalized(_ text: String) -> String? {
        let kept = text.lowercased().filter { $0 != "-" && $0 != " " && $0 != "\t" }
        guard kept.count == length, kept.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return kept
    }

    /// SHA-256 of the account's id and the normalized code.
    static func digest(_ normalized: String, accountId: Int64) -> Data {
        Data(SHA256.hash(data: Data("recovery-code\n\(accountId)\n\(normalized)".utf8)))
    }
}
