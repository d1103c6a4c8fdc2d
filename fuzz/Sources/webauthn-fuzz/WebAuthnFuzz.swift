// WebAuthnFuzz.swift: the properties webauthn-fuzz checks. The first byte picks what the rest is:
//   0: CBOR. Accepted items re-encode (the harness's canonical writer) to bytes that decode to the same item, nest at
//      most CBORDecoder.maximumDepth deep; decode and decodePrefix agree (the same error, or trailingBytes exactly
//      when decodePrefix stops before the end);
//   1: authenticator data. Accepted data: at least 37 bytes, an attested credential exactly when AT, extensions exactly
//      when ED, BS only with BE, a credential ID of 1…1023 bytes, the stored key bytes where they were read and a COSE
//      key of the same algorithm read alone, and the parts adding up to the whole;
//   2: a COSE key, then a signature: an accepted key names a supported algorithm matching its kty and reads the same
//      from its own bytes; the signature check only must not crash (a key owner may pick a weak key: that is theirs);
//   3: clientDataJSON checked as an assertion's: passing means the type, challenge and origin really are the fixture's
//      and crossOrigin is not true;
//   4: a whole assertion re-assembled: byte 1 picks the key (bit 0: Ed25519 or P-256) and whether UV is required (bit 1),
//      then 2-byte lengths and the clientDataJSON, the authenticator data, and the signature; verifyAssertion may
//      succeed only for a message (authenticatorData ‖ SHA-256(clientDataJSON)) the fixture signed with that key;
//   5: an attestation object, registered with the fixture's clientDataJSON: an accepted one gives a credential ID of
//      1…1023 bytes, a 16-byte AAGUID and a stored key that reads alone with the algorithm reported.
import Crypto
import Foundation
import FuzzSupport
@_spi(Testing) import WebAuthn

enum WebAuthnFuzz {
    static let fixture = Fixture()
    /// FUZZ_VERBOSE=1 prints each assertion's and registration's verdict (to see that the seeds verify).
    static let verbose = getenv("FUZZ_VERBOSE") != nil
    static let signed: [Set<[UInt8]>] = (0..<2).map { _ in
        Set(Fixture.signedAuthenticatorData.map { $0 + Array(SHA256.hash(data: Fixture.clientData("webauthn.get"))) })
    }

    static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        switch mode % 6 {
        case 0: cbor(rest)
        case 1: authenticatorData(rest)
        case 2: coseKey(rest)
        case 3: clientData(rest)
        case 4: assertion(rest)
        default: registration(rest)
        }
    }

    static func cbor(_ bytes: [UInt8]) {
        let whole = Result { () throws(CBORError) in try CBORDecoder.decode(bytes) }
        let prefix = Result { () throws(CBORError) in try CBORDecoder.decodePrefix(bytes, from: 0) }
        switch (whole, prefix) {
        case (.success(let item), .success(let (again, end))):
            require(item == again && end == bytes.count, "decode and decodePrefix disagree")
            require(depth(item) <= CBORDecoder.maximumDepth, "nested \(depth(item)) deep")
            let canonical = encode(item)
            require((try? CBORDecoder.decode(canonical)) == item, "does not round-trip")
        case (.failure(.trailingBytes), .success(let (_, end))):
            require(end < bytes.count, "trailing bytes, yet the item ends at the end")
        case (.failure(let a), .failure(let b)):
            require(a == b, "decode \(a), decodePrefix \(b)")
        default:
            require(false, "decode \(whole), decodePrefix \(prefix)")
        }
    }

    static func authenticatorData(_ bytes: [UInt8]) {
        guard let data = try? AuthenticatorData(bytes) else { return }
        require(bytes.count >= 37 && data.rpIdHash == Array(bytes[0..<32]), "header")
        require((data.attestedCredential != nil) == data.flags.contains(.attestedCredential), "AT")
        require((data.extensions != nil) == data.flags.contains(.extensions), "ED")
        require(!data.flags.contains(.backedUp) || data.flags.contains(.backupEligible), "BS without BE")
        var used = 37
        if let credential = data.attestedCredential {
            require((1...1023).contains(credential.credentialId.count) && credential.aaguid.count == 16, "credential ID or AAGUID")
            let keyStart = 37 + 18 + credential.credentialId.count
            require(Array(bytes[keyStart..<keyStart + credential.publicKeyBytes.count]) == credential.publicKeyBytes, "key bytes")
            require((try? COSEKey(credential.publicKeyBytes))?.algorithm == credential.publicKey.algorithm, "key alone")
            used = keyStart + credential.publicKeyBytes.count
        }
        if let extensions = data.extensions {
            require((try? CBORDecoder.decode(Array(bytes[used...]))) == extensions, "extensions are not the rest")
        } else {
            require(used == bytes.count, "bytes left over")
        }
    }

    static func coseKey(_ bytes: [UInt8]) {
        guard let (map, end) = try? CBORDecoder.decodePrefix(bytes, from: 0), let key = try? COSEKey(map) else { return }
        let kty: [COSEKey.Algorithm: Int] = [.es256: 2, .edDSA: 1, .rs256: 3]
        require(map[1]?.int == kty[key.algorithm] && map[3]?.int == key.algorithm.rawValue, "algorithm \(key.algorithm) for \(map)")
        require((try? COSEKey(Array(bytes[..<end])))?.algorithm == key.algorithm, "reads differently alone")
        _ = try? key.verify(signature: Array(bytes[end...]), over: Array(bytes[..<end]))
    }

    static func clientData(_ bytes: [UInt8]) {
        guard let data = try? ClientData(bytes),
              (try? data.check(ceremony: .assertion, challenge: Fixture.challenge, origins: Fixture.party.origins)) != nil else { return }
        require(data.type == "webauthn.get" && Fuzz.unbase64url(Substring(data.challenge)) == Fixture.challenge, "type or challenge")
        require(Fixture.party.origins.contains(data.origin) && data.crossOrigin != true, "origin")
    }

    static func assertion(_ bytes: [UInt8]) {
        guard let options = bytes.first else { return }
        var rest = bytes.dropFirst()
        func part() -> [UInt8] {
            let length = rest.prefix(2).reduce(0) { $0 << 8 | Int($1) }
            rest = rest.dropFirst(2)
            defer { rest = rest.dropFirst(length) }
            return Array(rest.prefix(length))
        }
        let clientData = part(), authData = part(), signature = Array(rest), key = Int(options & 1)
        let verdict = Result { () throws(WebAuthnError) in
            try Fixture.party.verifyAssertion(clientDataJSON: clientData, authenticatorData: authData, signature: signature,
                                              publicKey: fixture.coseKeys[key], storedSignCount: 0, challenge: Fixture.challenge,
                                              requireUserVerification: options & 2 != 0)
        }
        if verbose { print("webauthn-fuzz: assertion \(verdict)") }
        guard case .success = verdict else { return }
        require(signed[key].contains(authData + Array(SHA256.hash(data: clientData))), "verified a message the fixture never signed")
    }

    static func registration(_ bytes: [UInt8]) {
        let verdict = Result { () throws(WebAuthnError) in
            try Fixture.party.verifyRegistration(clientDataJSON: Fixture.clientData("webauthn.create"), attestationObject: bytes,
                                                 challenge: Fixture.challenge, requireUserVerification: false)
        }
        if verbose { print("webauthn-fuzz: registration \(verdict)") }
        guard case .success(let credential) = verdict else { return }
        require((1...1023).contains(credential.credentialId.count) && credential.aaguid.count == 16, "credential ID or AAGUID")
        require((try? COSEKey(credential.publicKey))?.algorithm.rawValue == credential.algorithm, "stored key")
    }

    /// Seeds for every mode: CBOR items, authenticator data with and without a credential and extensions, the COSE keys
    /// with a signature, client data, the fixture's signed assertions (each key, UV required or not) and registrations.
    static func seeds() -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        let extensions = encode(.map([CBOR.Pair(key: .text("credProtect"), value: .unsigned(2))]))
        for object in [fixture.attestationObject(key: 0), fixture.attestationObject(key: 1, format: "packed", extensions: extensions)] {
            seeds.append([5] + object)
            seeds.append([0] + object)
            if case .bytes(let authData)? = (try? CBORDecoder.decode(object))?["authData"] { seeds.append([1] + authData) }
        }
        seeds.append([0, 0x82, 0xF9, 0x3C, 0x00, 0xA1, 0x20, 0xFB, 0x3F, 0xF1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A])
        seeds.append([1] + Fixture.authenticatorData(flags: 0x85, signCount: 1, rest: extensions))
        for key in 0..<2 {
            let message = Fixture.signedAuthenticatorData[0] + Array(SHA256.hash(data: Fixture.clientData("webauthn.get")))
            seeds.append([2] + fixture.coseKeys[key] + fixture.sign(key: key, message))
            for (index, authData) in Fixture.signedAuthenticatorData.enumerated() {
                let clientData = Fixture.clientData("webauthn.get")
                let signature = fixture.sign(key: key, authData + Array(SHA256.hash(data: clientData)))
                let length = { (bytes: [UInt8]) in [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes }
                seeds.append([4, UInt8(key) | (index == 0 ? 2 : 0)] + length(clientData) + length(authData) + signature)
            }
        }
        seeds.append([3] + Fixture.clientData("webauthn.get"))
        seeds.append([3] + Array(#"{"type":"webauthn.get","challenge":"wMHCw8TFxsfIycrLzM3Ozw","origin":"https://other.example.com","crossOrigin":true}"#.utf8))
        return seeds
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) { Fuzz.require(condition, "webauthn-fuzz", message()) }
}
