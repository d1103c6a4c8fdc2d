// Argon2+Encoded.swift: the PHC string form of an argon2id hash, `$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`,
// with salt and hash in base64 without padding (what libargon2's argon2id_hash_encoded writes and reads).
import Foundation

extension Argon2 {
    /// The parts of an encoded argon2id (version 19) hash.
    struct Encoded: Equatable {
        var parameters: PasswordHasher.Parameters
        var salt: [UInt8]
        var hash: [UInt8]

        init(parameters: PasswordHasher.Parameters, salt: [UInt8], hash: [UInt8]) {
            self.parameters = parameters
            self.salt = salt
            self.hash = hash
        }

        /// Reads `text`; nil unless it is an argon2id v=19 hash with its three parameters, a salt and a hash.
        init?(_ text: String) {
            let parts = text.split(separator: "$", omittingEmptySubsequences: false)
            guard parts.count == 6, parts[0].isEmpty, parts[1] == "argon2id", parts[2] == "v=19" else { return nil }
            var values: [Substring: UInt32] = [:]
            for pair in parts[3].split(separator: ",", omittingEmptySubsequences: false) {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard halves.count == 2, values[halves[0]] == nil, halves[1].allSatisfy(\.isASCII),
                      let value = UInt32(halves[1]) else { return nil }
                values[halves[0]] = value
            }
            guard values.count == 3, let m = values["m"], let t = values["t"], let p = values["p"],
                  let salt = Self.decode(parts[4]), let hash = Self.decode(parts[5]),
                  salt.count >= 8, hash.count >= 4, p >= 1, t >= 1, m >= 8 * p else { return nil }
            self.init(parameters: .init(memoryKiB: m, iterations: t, parallelism: p), salt: salt, hash: hash)
        }

        /// The PHC string.
        var text: String {
            "$argon2id$v=19$\(parameters.encodedPart)$\(Self.encode(salt))$\(Self.encode(hash))"
        }

        private static func encode(_ bytes: [UInt8]) -> String {
            var text = Data(bytes).base64EncodedString()
            while text.hasSuffix("=") { text.removeLast() }
            return text
        }

        private static func decode(_ text: Substring) -> [UInt8]? {
            guard !text.isEmpty, text.count % 4 != 1, !text.contains("=") else { return nil }
            let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
            return Data(base64Encoded: padded).map(Array.init)
        }
    }
}
