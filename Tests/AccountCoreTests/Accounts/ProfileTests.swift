// ProfileTests.swift: reading and updating a profile, and the declared fields stored at sign-up.
import AccountRules
import Foundation
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

/// Services with declared profile fields (a unique, required `username`; an optional `city` not asked at sign-up;
/// an optional `phone`), the sign-up validator carrying the sign-up ones as Bootstrap does.
private struct ProfileWorld {
    static let username = ProfileField.declared(name: "username", label: "Username", required: true, minLength: 4, maxLength: 20,
                                                pattern: "[A-Za-z0-9_]+", unique: true,
                                                messages: ["too_short": "should have at least 4 characters"])
    static let city = ProfileField.declared(name: "city", label: "City", maxLength: 40, onSignUp: false)
    static let phone = ProfileField.declared(name: "phone", label: "Phone", pattern: "[0-9 +]+", inputType: "tel")
    static let client = ClientInfo(userAgent: "Browser/1", remoteAddress: "192.0.2.1")

    let clock = FixedClock()
    let database: AppDatabase
    let services: AccountServices

    init(fields: [ProfileField] = [username, city, phone], confirmationRequired: Bool = false, mode: SignUpPolicy.Mode = .open) throws {
        database = try TestDatabase.make()
        let configuration = CoreConfiguration(password: PasswordPolicy(hashing: cheapHashing),
                                              mail: MailPolicy(confirmationRequired: confirmationRequired),
                                              signUp: SignUpPolicy(mode: mode))
        services = AccountServices(database: database, configuration: configuration,
                                   validator: AccountForms.signUp(extra: fields.filter(\.onSignUp).map(\.field)),
                                   composer: LineComposer(), transport: OutboxTransport(folder: NSTemporaryDirectory() + "frontdoor-unused-outbox"),
                                   logger: Logger(label: "test"), profileFields: fields, clock: clock, random: SeededRandomSource(seed: 3))
    }

    static func form(_ email: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["email": email, "password": "correct horse", "password_confirmation": "correct horse"].merging(extra) { _, new in new }
    }

    /// Signs up (confirmation off) and returns the new account's id.
    func signUp(_ email: String, _ extra: [String: String]) throws -> Int64 {
        guard case .signedIn(let grant) = try services.registration.signUp(Self.form(email, extra), client: Self.client) else {
            throw FixtureError("sign-up did not sign in")
        }
        return grant.session.accountId
    }

    func rows() throws -> [[String?]] {
        try database.read { tx in
            try tx.rows("SELECT accountId, field, value, uniqueValue FROM profileValue ORDER BY accountId, field")
                .map { row in [String(row["accountId"] as Int64), row["field"], row["value"], row["uniqueValue"]] }
        }
    }

    func count(_ table: String) throws -> Int {
        try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }
}

/// The `.invalid` payload of `error`, or a recorded issue.
private func validationErrors(_ error: (any Error)?) -> ValidationErrors {
    guard case .invalid(let errors) = error as? AccountError else {
        Issue.record("expected AccountError.invalid, got \(String(describing: error))")
        return ValidationErrors()
    }
    return errors
}

struct ProfileTests {
    @Test func signUpStoresTheSignUpFieldsTrimmedAndTheUniqueOneWithoutCase() throws {
        let world = try ProfileWorld()
        let id = try world.signUp("ann@example.com", ["username": "  Ann_Lee ", "phone": "+44 20", "city": "Leeds"])
        // The city is not a sign-up field: what the form carried for it is not stored.
        #expect(try world.rows() == [["\(id)", "phone", "+44 20", nil], ["\(id)", "username", "Ann_Lee", "ann_lee"]])
        #expect(try world.services.profile.values(of: id) == ProfileValues(displayName: "", fields: ["username": "Ann_Lee", "phone": "+44 20"]))
    }

    @Test func signUpChecksTheDeclaredFieldsWithTheOthersAndCreatesNothing() throws {
        let world = try ProfileWorld()
        let error = #expect(throws: AccountError.self) {
            try world.services.registration.signUp(["email": "ann@example", "password": "short", "password_confirmation": "short",
                                                    "username": "abc", "phone": "call me"], client: ProfileWorld.client)
        }
        let errors = validationErrors(error)
        #expect(errors.fieldNames == ["email", "password", "username", "phone"])
        #expect(errors.messages(for: "username", in: .english) == ["Username should have at least 4 characters"])
        #expect(errors.messages(for: "phone", in: .english) == ["Phone is invalid"])
        #expect(try [world.count("account"), world.count("profileValue")] == [0, 0])
    }

    @Test func aRequiredFieldLeftBlankAtSignUpIsReported() throws {
        let world = try ProfileWorld()
        let error = #expect(throws: AccountError.self) {
            try world.services.registration.signUp(ProfileWorld.form("ann@example.com", ["username": "   "]), client: ProfileWorld.client)
        }
        #expect(validationErrors(error).messages(for: "username", in: .english) == ["Username can't be blank"])
        #expect(try world.count("account") == 0)
    }

    @Test(arguments: [false, true])
    func aTakenUniqueValueInOtherCaseIsRefusedAtSignUpAndNothingIsCreated(confirmationRequired: Bool) throws {
        let world = try ProfileWorld(confirmationRequired: confirmationRequired)
        try world.database.write { tx in
            let (other, _) = try Account.insert(address: "bob@example.com", passwordHash: "x", verified: true, language: nil, now: world.clock.now(),
                                                in: tx)
            try world.services.profile.store(["username": "Ann_Lee"], accountId: other, signUp: true, in: tx)
        }
        let error = #expect(throws: AccountError.self) {
            try world.services.registration.signUp(ProfileWorld.form("ann@example.com", ["username": "ANN_lee"]), client: ProfileWorld.client)
        }
        let errors = validationErrors(error)
        #expect(errors.fieldNames == ["username"] && errors.messages(for: "username", in: .english) == ["Username has already been taken"])
        #expect(try [world.count("account"), world.count("emailAddress"), world.count("profileValue"), world.count("mailQueue")] == [1, 1, 1, 0])
    }

    @Test func theUniqueIndexRefusesAValueTakenSinceTheCheckAndTheTransactionWritesNothing() throws {
        // Two requests race: both passed the check; the second one's insert meets the unique index.
        let world = try ProfileWorld()
        let ann = try world.signUp("ann@example.com", ["username": "Ann_Lee"])
        let bob = try world.signUp("bob@example.com", ["username": "bobby"])
        let error = #expect(throws: AccountError.self) {
            try world.database.write { tx in
                try tx.execute("UPDATE account SET displayName = 'Bob' WHERE id = ?", [bob])
                try world.services.profile.store(["username": "ann_LEE", "phone": "123"], accountId: bob, signUp: false, in: tx)
            }
        }
        #expect(validationErrors(error).keys(for: "username") == ["taken"])
        #expect(try world.rows() == [["\(ann)", "username", "Ann_Lee", "ann_lee"], ["\(bob)", "username", "bobby", "bobby"]])
        #expect(try world.services.profile.values(of: bob).displayName == "", "the whole transaction rolled back")
    }

    @Test(arguments: [false, true])
    func aNameTakenBetweenTheCheckAndTheInsertRollsTheSignUpBack(confirmationRequired: Bool) throws {
        // Bob (no username yet) gets "ann_lee" while Ann's sign-up runs: a trigger plays the other request, firing when
        // Ann's address is inserted, after Registration's check and before it stores her username.
        let world = try ProfileWorld(confirmationRequired: confirmationRequired)
        try world.database.write { tx in
            let (bob, _) = try Account.insert(address: "bob@example.com", passwordHash: "x", verified: true, language: nil, now: world.clock.now(),
                                              in: tx)
            try tx.installTrigger("rival", "AFTER", "INSERT", on: "emailAddress", when: "NEW.address = 'ann@example.com'", run: """
                INSERT INTO profileValue (accountId, field, value, uniqueValue) VALUES (\(bob), 'username', 'ANN_LEE', 'ann_lee')
                """)
        }
        let error = #expect(throws: AccountError.self) {
            try world.services.registration.signUp(ProfileWorld.form("ann@example.com", ["username": "Ann_Lee"]), client: ProfileWorld.client)
        }
        #expect(validationErrors(error).messages(for: "username", in: .english) == ["Username has already been taken"])
        #expect(try [world.count("account"), world.count("emailAddress"), world.count("profileValue"), world.count("session"),
                     world.count("accountToken"), world.count("mailQueue")] == [1, 1, 0, 0, 0, 0],
                "Ann's account, address, session, token and mail rolled back with the rival's row (same transaction)")
    }

    @Test func anInvitedSignUpStoresTheFieldsToo() throws {
        let world = try ProfileWorld(mode: .invite)
        let issued = try world.services.invitations.create(email: "ann@example.com", client: ProfileWorld.client)
        var form = ProfileWorld.form("ann@example.com", ["username": "annie"])
        form["invite"] = issued.token
        guard case .signedIn(let grant) = try world.services.registration.signUp(form, client: ProfileWorld.client) else {
            Issue.record("an invited sign-up signs in"); return
        }
        #expect(try world.services.profile.values(of: grant.session.accountId).fields == ["username": "annie"])
    }

    @Test func anInvitedSignUpWithATakenNameKeepsTheInvitation() throws {
        let world = try ProfileWorld(mode: .invite)
        let first = try world.services.invitations.create(email: "bob@example.com", client: ProfileWorld.client)
        var bob = ProfileWorld.form("bob@example.com", ["username": "annie"])
        bob["invite"] = first.token
        _ = try world.services.registration.signUp(bob, client: ProfileWorld.client)
        let issued = try world.services.invitations.create(email: "ann@example.com", client: ProfileWorld.client)
        var form = ProfileWorld.form("ann@example.com", ["username": "Annie"])
        form["invite"] = issued.token
        let error = #expect(throws: AccountError.self) { try world.services.registration.signUp(form, client: ProfileWorld.client) }
        #expect(validationErrors(error).keys(for: "username") == ["taken"])
        #expect(try world.services.invitations.invitation(token: issued.token) == "ann@example.com", "the invitation still works")
        #expect(try world.count("account") == 1)
    }

    @Test func updateSetsTheDisplayNameAndFieldsAndAuditsWhichChanged() throws {
        let world = try ProfileWorld()
        let id = try world.signUp("ann@example.com", ["username": "annie"])
        world.clock.advance(by: 60)
        try world.services.profile.update(accountId: id, form: ["display_name": " Ann Lee ", "username": "annie", "city": "Leeds"],
                                          client: ProfileWorld.client)
        #expect(try world.services.profile.values(of: id) == ProfileValues(displayName: "Ann Lee", fields: ["username": "annie", "city": "Leeds"]))
        let audit = try world.services.audit.list(AuditFilter(accountId: id, event: .profileUpdated))
        #expect(audit.count == 1)
        #expect(audit.first?.detail == "display_name, city", "names of what changed, never the values")
        #expect(audit.first?.email == "ann@example.com")
        let updatedAt = try world.database.read { tx in try tx.value(Double.self, "SELECT updatedAt FROM account") }
        #expect(updatedAt == world.clock.now().timeIntervalSince1970)
    }

    @Test func emptyingAnOptionalFieldRemovesItsRow() throws {
        let world = try ProfileWorld()
        let id = try world.signUp("ann@example.com", ["username": "annie", "phone": "123"])
        try world.services.profile.update(accountId: id, form: ["username": "annie", "phone": ""], client: ProfileWorld.client)
        #expect(try world.rows() == [["\(id)", "username", "annie", "annie"]])
    }

    @Test func updateListsEveryProblemAndWritesNothing() throws {
        let world = try ProfileWorld()
        let id = try world.signUp("ann@example.com", ["username": "annie", "phone": "123"])
        let error = #expect(throws: AccountError.self) {
            try world.services.profile.update(accountId: id, form: ["display_name": String(repeating: "a", count: 101), "username": "",
                                                                    "city": "Leeds\nYorkshire", "phone": "456"],
                                              client: ProfileWorld.client)
        }
        let errors = validationErrors(error)
        #expect(errors.fieldNames == ["display_name", "username", "city"])
        #expect(errors.messages(for: "display_name", in: .english) == ["Display name is too long (maximum is 100 characters)"])
        #expect(errors.keys(for: "city") == ["invalid"])
        #expect(try world.services.profile.values(of: id) == ProfileValues(displayName: "", fields: ["username": "annie", "phone": "123"]))
        #expect(try world.services.audit.list(AuditFilter(accountId: id, event: .profileUpdated)).isEmpty)
    }

    @Test func anotherAccountsValueIsTakenButKeepingOnesOwnIsFine() throws {
        let world = try ProfileWorld()
        let ann = try world.signUp("ann@example.com", ["username": "annie"])
        let bob = try world.signUp("bob@example.com", ["username": "bobby"])
        try world.services.profile.update(accountId: ann, form: ["username": "ANNIE"], client: ProfileWorld.client)
        #expect(try world.services.profile.values(of: ann).fields["username"] == "ANNIE", "a change of case of one's own value")
        let error = #expect(throws: AccountError.self) {
            try world.services.profile.update(accountId: bob, form: ["display_name": "Bob", "username": "Annie"], client: ProfileWorld.client)
        }
        #expect(validationErrors(error).messages(for: "username", in: .english) == ["Username has already been taken"])
        #expect(try world.services.profile.values(of: bob) == ProfileValues(displayName: "", fields: ["username": "bobby"]))
    }

    @Test func valuesOfFieldsNoLongerDeclaredAreLeftOutAndAMissingAccountIsNotFound() throws {
        let world = try ProfileWorld()
        let id = try world.signUp("ann@example.com", ["username": "annie"])
        _ = try world.database.write { tx in
            try tx.execute("INSERT INTO profileValue (accountId, field, value) VALUES (?, 'shoe_size', '42')", [id])
        }
        #expect(try world.services.profile.values(of: id).fields == ["username": "annie"])
        #expect(throws: AccountError.notFound) { try world.services.profile.values(of: id + 100) }
        #expect(throws: AccountError.notFound) {
            try world.services.profile.update(accountId: id + 100, form: ["username": "nobody"], client: ProfileWorld.client)
        }
    }

    @Test func withoutDeclaredFieldsTheProfileIsTheDisplayNameAndSignUpIsUnchanged() throws {
        let world = try ProfileWorld(fields: [])
        let id = try world.signUp("ann@example.com", ["username": "ignored"])
        try world.services.profile.update(accountId: id, form: ["display_name": "Ann"], client: ProfileWorld.client)
        #expect(try world.services.profile.values(of: id) == ProfileValues(displayName: "Ann", fields: [:]))
        #expect(try world.count("profileValue") == 0)
    }

    @Test func deletingTheAccountTakesItsValuesAlong() throws {
        let world = try ProfileWorld()
        let id = try world.signUp("ann@example.com", ["username": "annie"])
        _ = try world.database.write { tx in try tx.execute("DELETE FROM account WHERE id = ?", [id]) }
        #expect(try world.count("profileValue") == 0)
        // The name is free again.
        _ = try world.signUp("bob@example.com", ["username": "Annie"])
    }
}
