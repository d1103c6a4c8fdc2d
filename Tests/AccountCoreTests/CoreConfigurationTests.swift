import Testing
@testable import AccountCore

struct CoreConfigurationTests {
    @Test func theDefaultsAreTheDocumentedOnes() {
        let configuration = CoreConfiguration.default
        #expect(configuration.session == SessionPolicy(lifetime: 12 * 3600, idleTimeout: 1800, rememberLifetime: 30 * 86400, touchInterval: 60))
        #expect(configuration.password.length == 12...128)
        #expect(configuration.password.hashing == PasswordHasher.Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1))
        #expect(configuration.mail.confirmationRequired)
        #expect(configuration.mail.confirmationLifetime == 3 * 86400)
        #expect(configuration.mail.resetLifetime == 3600)
        #expect(configuration.mail.throttle == 60)
        #expect(configuration.mail.retryBase == 30)
    }
}
