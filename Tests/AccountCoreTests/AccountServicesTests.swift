import AccountRules
import Foundation
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

struct AccountServicesTests {
    @Test func everyServiceIsBuiltFromTheOneConfiguration() throws {
        let configuration = CoreConfiguration(
            session: SessionPolicy(lifetime: 100, idleTimeout: 50, rememberLifetime: 1000, touchInterval: 5),
            password: PasswordPolicy(length: 10...20, hashing: cheapHashing),
            mail: MailPolicy(confirmationRequired: false, confirmationLifetime: 77, resetLifetime: 88, throttle: 99, retryBase: 11))
        let services = AccountServices(database: try TestDatabase.make(), configuration: configuration,
                                       validator: AccountForms.signUp(passwordLength: configuration.password.length),
                                       composer: LineComposer(), transport: OutboxTransport(folder: NSTemporaryDirectory()),
                                       logger: Logger(label: "test"), clock: FixedClock(), random: SeededRandomSource(seed: 1))
        #expect(services.hasher.parameters == cheapHashing)
        #expect(services.sessions.policy == configuration.session)
        #expect(services.mail.throttle == 99 && services.mail.retryBase == 11)
        #expect(!services.confirmation.required && services.confirmation.lifetime == 77)
        #expect(!services.authentication.confirmationRequired)
        #expect(services.reminder.lifetime == 88)
    }

    @Test func theServicesShareOneClockAndDatabase() throws {
        // Given services whose clock has moved on
        let fixture = try TestFixture()
        fixture.clock.advance(by: 1234)
        // When someone signs up
        let grant = try fixture.signUp()
        // Then the account, the session and the session lookup all use that clock and database
        #expect(grant.session.createdAt == fixture.clock.now())
        let createdAt = try fixture.database.read { tx in
            try tx.value(Date.self, "SELECT createdAt FROM account WHERE id = ?", [grant.session.accountId])
        }
        #expect(createdAt == fixture.clock.now())
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) != nil)
    }
}
