// PKCETests.swift: the S256 code challenge.
import OAuthClient
import Testing

@Suite struct PKCETests {
    @Test func challengeMatchesRFC7636AppendixB() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }
}
