import AccountCore
import Foundation
import Testing
@testable import WebFront

/// `passkeys.authenticator_names` (AppConfiguration+Passkeys.swift) and the relying party taken from `public_url`.
struct PasskeyConfigTests {
    @Test func theNamesFileIsJSONOrAaguidNameLines() throws {
        let json = try AppConfiguration.parseAuthenticatorNames(#"{"EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4": "Google Password Manager"}"#)
        #expect(json == ["ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager"])
        let lines = try AppConfiguration.parseAuthenticatorNames("""
            # names
            ---
            ea9b8d664d011d213ce4b6b48cb575d4: Google Password Manager
            "cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5: USB-A"
            """)
        #expect(lines == ["ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
                          "cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5: USB-A"])
    }

    @Test func aLineThatIsNoAaguidIsRefusedNamingTheKey() {
        for text in ["not-an-aaguid: Name", "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4:", "just words", #"{"ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": 3}"#] {
            #expect(throws: ConfigError.self) { try AppConfiguration.parseAuthenticatorNames(text) }
            do { _ = try AppConfiguration.parseAuthenticatorNames(text) } catch {
                #expect("\(error)".hasPrefix("passkeys.authenticator_names: "))
            }
        }
    }

    @Test func theRelyingPartyIsPublicURLsHostAndAnIPAddressIsNone() {
        var configuration = AppConfiguration()
        configuration.publicURL = "https://id.example.com"
        #expect(configuration.core.passkeys.relyingPartyId == "id.example.com" && configuration.core.passkeys.isUsable)
        #expect(configuration.core.passkeys.origin == "https://id.example.com")
        configuration.publicURL = "http://127.0.0.1:8080"
        #expect(!configuration.core.passkeys.isUsable)
        configuration.publicURL = "http://[::1]:8080"
        #expect(!configuration.core.passkeys.isUsable)
        configuration.publicURL = "http://localhost:8080"
        #expect(configuration.core.passkeys.isUsable && configuration.core.passkeys.origin == "http://localhost:8080")
        for (host, usable) in [("192.168.1.10", false), ("10.0.0.300", true), ("2001.example.com", true), ("id-7.example", true)] {
            configuration.publicURL = "https://\(host)"
            #expect(configuration.core.passkeys.isUsable == usable, "\(host)")
        }
    }
}
