// GateRuleTests.swift: FRONTDOOR_ALLOW's language (GateRule.swift): addresses, domains, groups, any entry matching,
// unknown kinds failing closed; and the gate admitting a `group:` location by membership.
import AccountCore
import Testing
@testable import WebFront

struct GateRuleTests {
    func person(_ email: String?, _ groups: [String] = []) -> GateRule.Person { GateRule.Person(verifiedEmail: email, groups: groups) }

    @Test(arguments: [
        ("ann@example.com", "ann@example.com", true), ("ann@example.com", "bob@example.com", false),
        ("ann@example.com", "@example.com", true), ("ann@example.com", "example.com", true),
        ("ann@mail.example.com", "@example.com", false), ("ann@mail.example.com", ".example.com", true),
        ("ann@example.com", ".example.com", true), ("ann@badexample.com", ".example.com", false),
        ("ann@example.com", "", true), ("Ann@Example.COM", "ANN@example.com", true),
    ])
    func addressesAndDomains(email: String, rule: String, allowed: Bool) {
        #expect(GateRule(rule).allows(person(email)) == allowed)
    }

    @Test func aGroupEntryAdmitsItsMembersWithoutCase() {
        let rule = GateRule("group:Admins")
        #expect(rule.entries == [.group("admins")])
        #expect(rule.allows(person("ann@example.com", ["admins"])))
        #expect(rule.allows(person("ann@example.com", ["ops", "ADMINS"])))
        #expect(!rule.allows(person("ann@example.com", ["ops"])))
        #expect(!rule.allows(person("ann@example.com")))
        #expect(!rule.allows(person("ann@example.com", ["admins-old"])), "a name is matched whole")
    }

    @Test func aGroupEntryCountsMembershipEvenWithoutAVerifiedAddress() {
        // The operator put the account in the group; an unproven address meets no address entry, but membership counts.
        #expect(GateRule("group:admins").allows(person(nil, ["admins"])))
        #expect(!GateRule("ann@example.com @example.com").allows(person(nil, ["admins"])))
    }

    @Test func anyEntryMatchesAcrossKinds() {
        let rule = GateRule("boss@example.com, @partner.test group:ops\tgroup:admins")
        #expect(rule.entries == [.address("boss@example.com"), .domain("partner.test"), .group("ops"), .group("admins")])
        #expect(rule.allows(person("boss@example.com")))
        #expect(rule.allows(person("eve@partner.test")))
        #expect(rule.allows(person("ann@example.com", ["ops"])))
        #expect(rule.allows(person(nil, ["admins"])))
        #expect(!rule.allows(person("ann@example.com", ["staff"])))
    }

    @Test func anUnknownKindMatchesNobodyAndTheRuleFailsClosed() {
        // A typo, or a kind a later version knows: it refuses, never admits.
        let rule = GateRule("gruop:admins")
        #expect(rule.entries == [.unknown("gruop:admins")])
        #expect(!rule.allows(person("ann@example.com", ["admins"])))
        #expect(GateRule("10.0.0.0/8 group:").entries == [.unknown("10.0.0.0/8"), .unknown("group:")], "no networks; no empty group name")
        #expect(!GateRule("10.0.0.0/8").allows(person("ann@10.0.0.0/8")))
    }

    @Test func theGateAdmitsAGroupLocationByMembershipAndNamesTheGroups() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        let form = ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"]
        #expect(browser.post("/account/sign_up", form).status == 303)
        func check(_ allow: String) -> Response {
            browser.send(Request(params: ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/auth/check", "REMOTE_ADDR": "127.0.0.1",
                                          "HTTP_COOKIE": browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                                          "FRONTDOOR_ALLOW": allow]))
        }
        #expect(check("group:admins").status == 403)
        let groups = test.services.groups
        let cli = ClientInfo(userAgent: "test", remoteAddress: "local")
        try groups.add(name: "admins", client: cli)
        try groups.add(name: "Ops", client: cli)
        try groups.change(accountId: 1, adding: ["admins", "ops"], removing: [], client: cli)
        #expect(check("group:admins").status == 200, "admitted by membership, although the address is unproven")
        #expect(check("bob@example.com group:ops").status == 200)
        #expect(check("group:staff").status == 403)
        try test.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        #expect(check("group:admins").header("Remote-Groups") == "admins,Ops", "sorted without case, as written")
        try groups.change(accountId: 1, adding: [], removing: ["ADMINS"], client: cli)
        #expect(check("group:admins").status == 403, "the next request reads the membership again (SQLite: no cache)")
    }
}
