// HTTPClientTests.swift: which provider URLs are allowed (ProviderURL).
import OAuthClient
import Testing

@Suite struct HTTPClientTests {
    @Test(arguments: ["https://sso.example.com", "https://sso.example.com:8443/realms/a?x=1", "http://127.0.0.1:9000/token",
                      "http://127.1.2.3/", "http://localhost:8080", "http://[::1]:9000/jwks", "HTTPS://Example.com/"])
    func allowed(url: String) {
        #expect(ProviderURL.isAllowed(url))
    }

    @Test(arguments: ["", "sso.example.com", "http://sso.example.com", "http://127.0.0.1.example.com/", "http://localhost.example.com",
                      "http://[::2]/", "http://127.0.0.1:99999/", "https://user@sso.example.com/", "https:///path",
                      "javascript:alert(1)", "https://example.com/\nx"])
    func refused(url: String) {
        #expect(!ProviderURL.isAllowed(url))
    }
}
