// ConfirmationTests.swift: resending a confirmation link from the public page, for a sign-up and for an added address.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct ConfirmationTests {
    func mails(_ fixture: TestFixture, kind: String) throws -> Int {
        try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM mailQueue WHERE kind = ?", [kind]) ?? 0 }
    }

    @Test func anAddedAddressGetsTheAddedAddressWordingAndASignUpItsOwn() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let outcome = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        guard case .confirmationSent = outcome else { Issue.record("expected a confirmation mail"); return }
        fixture.clock.advance(by: 120)
        try fixture.services.confirmation.resend(email: "ANN@example.com")
        #expect(try mails(fixture, kind: "confirmation") == 2, "the sign-up's own wording")

        let accountId = try fixture.database.write { tx -> Int64 in
            try tx.execute("UPDATE emailAddress SET verifiedAt = 1")
            return try tx.value(Int64.self, "SELECT accountId FROM emailAddress")!
        }
        _ = try fixture.services.addresses.add("work@example.org", to: accountId, client: ClientInfo())
        fixture.clock.advance(by: 120)
        try fixture.services.confirmation.resend(email: "work@example.org")
        #expect(try mails(fixture, kind: "address_verification") == 2)
        #expect(try mails(fixture, kind: "confirmation") == 2, "no sign-up wording for an added address")
        try fixture.services.confirmation.resend(email: "work@example.org")
        #expect(try mails(fixture, kind: "address_verification") == 2, "throttled per kind and address")
        try fixture.services.confirmation.resend(email: "nobody@example.org")
        #expect(try fixture.count("mailQueue") == 4, "an unknown address: nothing, and nothing told")
    }
}
