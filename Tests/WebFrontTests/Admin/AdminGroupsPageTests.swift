// AdminGroupsPageTests.swift: admin/groups and admin/group: the list, creating and removing groups (one with members
// only when forced, and then after a fresh password), the members of one group, every change audited as the admin's.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminGroupsPageTests {
    func auditRows(_ site: AdminSite, _ event: AuditEvent) throws -> [AuditEntry] {
        try site.test.services.audit.list(AuditFilter(event: event, limit: 100))
    }

    @Test func theListLinksEachGroupWithItsMemberCount() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "a+b/c", client: adminTestCLI)
        let page = site.admin.get(site.uri("groups"))
        #expect(page.status == 200)
        #expect(page.text.contains("<a href=\"/account/admin/group?name=admins\">admins</a>"))
        #expect(page.text.contains("<a href=\"/account/admin/group?name=a%2Bb%2Fc\">a+b/c</a>"), "the name encoded in the link")
        #expect(page.text.contains("<td data-label=\"Members\">1</td>"))
        #expect(page.text.contains("<td data-label=\"Members\">0</td>"))
        #expect(page.text.components(separatedBy: "name=\"force\"").count == 2, "a force box only where there are members")
    }

    @Test func creatingAGroupIsAuditedAsTheAdmins() throws {
        let site = try AdminSite()
        let response = site.admin.post(site.uri("groups"), ["name": " ops "])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/account/admin/groups")
        #expect(try site.test.services.groups.list().map(\.name) == ["admins", "ops"])
        #expect(site.admin.get(site.uri("groups")).text.contains("The group was created."))
        let row = try #require(try auditRows(site, .groupCreated).first)
        #expect(row.detail == "group ops")
        #expect(row.actorId == site.adminId)
    }

    @Test func aBadOrTakenNameIsShownBesideTheField() throws {
        let site = try AdminSite()
        let malformed = site.admin.post(site.uri("groups"), ["name": "two words"])
        #expect(malformed.status == 422)
        #expect(malformed.text.contains("Group name may contain only letters"))
        #expect(malformed.text.contains("value=\"two words\""))
        #expect(malformed.text.contains("aria-describedby=\"name-error\""))
        let taken = site.admin.post(site.uri("groups"), ["name": "ADMINS"])
        #expect(taken.status == 422)
        #expect(taken.text.contains("Group name is the name of a group already"))
        #expect(try site.test.services.groups.list().count == 1)
    }

    @Test func anEmptyGroupIsRemovedAtOnce() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "ops", client: adminTestCLI)
        let response = site.admin.post(site.uri("groups/remove"), ["name": "OPS"])
        #expect(response.status == 303)
        #expect(try site.test.services.groups.list().map(\.name) == ["admins"])
        #expect(site.admin.get(site.uri("groups")).text.contains("The group was removed."))
        #expect(try auditRows(site, .groupDeleted).map(\.actorId) == [site.adminId])
    }

    @Test func theAdminsGroupIsNeverRemovedHere() throws {
        let site = try AdminSite()
        let response = site.admin.post(site.uri("groups/remove"), ["name": " ADMINS ", "force": "1"])
        #expect(response.status == 303)
        #expect(site.admin.get(site.uri("groups")).text.contains("The administrators’ group cannot be removed here"))
        #expect(try site.test.services.groups.list().map(\.name) == ["admins"])
    }

    @Test func aGroupWithMembersIsKeptWithoutForceAndTheCountIsSaid() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "ops", client: adminTestCLI)
        try site.test.services.groups.change(accountId: site.annId, adding: ["ops"], removing: [], client: adminTestCLI)
        try site.test.services.groups.change(accountId: site.adminId, adding: ["ops"], removing: [], client: adminTestCLI)
        let response = site.admin.post(site.uri("groups/remove"), ["name": "ops"])
        #expect(response.status == 409)
        #expect(response.text.contains("role=\"alert\">The group ops still has members (2)."))
        #expect(try site.test.services.groups.groups(of: site.annId) == ["ops"])
        #expect(try auditRows(site, .groupDeleted).isEmpty)
    }

    @Test func withForceAndARecentPasswordTheGroupAndItsMembershipsGo() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "ops", client: adminTestCLI)
        try site.test.services.groups.change(accountId: site.annId, adding: ["ops"], removing: [], client: adminTestCLI)
        let response = site.admin.post(site.uri("groups/remove"), ["name": "ops", "force": "1"])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/account/admin/groups")
        #expect(try site.test.services.groups.groups(of: site.annId).isEmpty)
        #expect(try auditRows(site, .groupMemberRemoved).map(\.actorId) == [site.adminId])
        #expect(try auditRows(site, .groupDeleted).map(\.actorId) == [site.adminId])
    }

    @Test func withForceAfterReauthenticateAfterThePasswordIsAskedFirst() throws {
        let site = try AdminSite()
        try site.test.services.groups.add(name: "ops", client: adminTestCLI)
        try site.test.services.groups.change(accountId: site.annId, adding: ["ops"], removing: [], client: adminTestCLI)
        site.test.clock.advance(by: 301)
        let response = site.admin.post(site.uri("groups/remove"), ["name": "ops", "force": "1"])
        #expect(response.status == 303)
        #expect(response.header("Location")?.hasPrefix("/account/settings/reauthenticate?rd=") == true)
        #expect(response.header("Location")?.contains("admin%2Fgroups") == true, "back to the list after")
        #expect(try site.test.services.groups.groups(of: site.annId) == ["ops"])
    }

    @Test func removingAnUnknownGroupIsSaid() throws {
        let site = try AdminSite()
        #expect(site.admin.post(site.uri("groups/remove"), ["name": "nope"]).status == 303)
        #expect(site.admin.get(site.uri("groups")).text.contains("There is no such group."))
    }

    @Test func aGroupsPageListsItsMembersByAddressLinkedToTheirPage() throws {
        let site = try AdminSite()
        try site.test.services.groups.change(accountId: site.annId, adding: ["admins"], removing: [], client: adminTestCLI)
        let page = site.admin.get(site.uri("group?name=ADMINS"))
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>Group admins</h1>"))
        let admin = try #require(page.text.range(of: "<a href=\"/account/admin/person?id=1\">admin@example.com</a>"))
        let ann = try #require(page.text.range(of: "<a href=\"/account/admin/person?id=2\">ann@example.com</a>"))
        #expect(admin.lowerBound < ann.lowerBound, "by address")
        #expect(page.text.contains("name=\"remove\" value=\"admins\""))
        #expect(page.text.contains("action=\"/account/admin/person/groups\""))
        try site.test.services.groups.add(name: "empty", client: adminTestCLI)
        #expect(site.admin.get(site.uri("group?name=empty")).text.contains("Nobody is in this group."))
        #expect(site.admin.get(site.uri("group?name=nope")).status == 404)
        #expect(site.admin.get(site.uri("group")).status == 404)
    }
}
