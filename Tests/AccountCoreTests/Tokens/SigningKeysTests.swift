// SigningKeysTests.swift: one current key per purpose, rotation keeps the old key published for the grace period.
import Foundation
import Testing
@testable import AccountCore

@Suite struct SigningKeysTests {
    let fixture: TestFixture
    let keys: SigningKeys

    init() throws {
        fixture = try TestFixture()
        keys = SigningKeys(database: fixture.database, purpose: "browserid", clock: fixture.clock)
    }

    @Test func noKeyUntilTheFirstIsAdded() throws {
        #expect(try keys.current() == nil)
        #expect(try keys.currentID() == nil)
        #expect(try keys.published(grace: 86400).isEmpty)
    }

    @Test func addFirstKeepsAnExistingKey() throws {
        let first = try keys.addFirst(privateKey: "private-1", publicKey: "public-1")
        let again = try keys.addFirst(privateKey: "private-2", publicKey: "public-2")
        #expect(again == first)
        #expect(try keys.current()?.privateKey == "private-1")
        #expect(try fixture.count("signingKey") == 1)
    }

    @Test func rotationRetiresTheCurrentKeyAndKeepsItPublishedForTheGrace() throws {
        let first = try keys.addFirst(privateKey: "private-1", publicKey: "public-1")
        fixture.clock.advance(by: 60)
        let second = try keys.rotate(privateKey: "private-2", publicKey: "public-2")
        #expect(try keys.currentID() == second.id)
        #expect(try keys.published(grace: 3600).map(\.publicKey) == ["public-2", "public-1"])
        #expect(try keys.all().first { $0.id == first.id }?.retiredAt == fixture.clock.now())
        fixture.clock.advance(by: 3601)
        #expect(try keys.published(grace: 3600).map(\.publicKey) == ["public-2"])
        #expect(try keys.all().count == 2)
    }

    /// Another process stored the first key between the check and the insert: the partial unique index
    /// `signingKey_oneCurrent` turns the second insert into nothing, and `addFirst` then returns the stored key.
    @Test func aSecondFirstKeyIsNotStored() throws {
        let stored = try fixture.database.write { tx in
            try tx.insertFirstSigningKey(purpose: "browserid", privateKey: "private-1", publicKey: "public-1", createdAt: 0)
        }
        let again = try fixture.database.write { tx in
            try tx.insertFirstSigningKey(purpose: "browserid", privateKey: "private-2", publicKey: "public-2", createdAt: 0)
        }
        #expect(stored != nil && again == nil)
        #expect(try keys.current()?.privateKey == "private-1")
        #expect(try fixture.count("signingKey") == 1)
    }

    @Test func purposesAreSeparate() throws {
        try keys.addFirst(privateKey: "a", publicKey: "A")
        let other = SigningKeys(database: fixture.database, purpose: "other", clock: fixture.clock)
        #expect(try other.current() == nil)
        try other.addFirst(privateKey: "b", publicKey: "B")
        #expect(try keys.current()?.publicKey == "A")
    }
}
