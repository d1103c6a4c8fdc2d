// AdminListsLanguageTests.swift: the invitations, groups and audit pages in French and German have no English word
// left in their own text (what the look test checks in a browser: text marked lang="en", such as event names and the
// core's detail, does not count).
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AdminListsLanguageTests {
    /// The look test's list (Tests/e2e/look.py ENGLISH).
    static let english: Set<String> = ["the", "your", "you", "and", "with", "this", "that", "please", "sign", "signed", "password",
        "settings", "address", "account", "accounts", "email", "emails", "back", "continue", "cancel", "send", "save", "change",
        "something", "went", "wrong", "error", "found", "check", "here", "home", "remember", "forgot", "delete", "allow", "device",
        "skip", "content", "language", "welcome", "linked"]

    /// The English words of `html`'s text outside elements marked lang="en", addresses and links left out.
    static func englishWords(_ html: String) -> [String] {
        var text = html.replacing(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/, with: " ")
        text = text.replacing(/<(code|option|td)\b[^>]*lang="en"[^>]*>[\s\S]*?<\/\1>/, with: " ")
        text = text.replacing(/<[^>]*>/, with: " ")
        text = text.replacing(/\S+@\S+|https?:\/\/\S+|\b[\w.-]+\.(?:com|test|org)\b/, with: " ")
        return Set(text.matches(of: /[A-Za-z]+/).map { String($0.0) }.filter { english.contains($0.lowercased()) }).sorted()
    }

    @Test(arguments: ["fr", "de"])
    func thePagesSpeakTheirLanguage(_ language: String) throws {
        let site = try AdminSite()
        try site.test.services.profile.setLanguage(language, of: site.adminId)
        _ = try site.test.services.invitations.create(email: "bob@example.com", client: adminTestCLI)
        try site.test.services.groups.add(name: "ops", client: adminTestCLI)
        try site.test.services.groups.change(accountId: site.annId, adding: ["ops"], removing: [], client: adminTestCLI)
        var byAdmin = adminTestCLI
        byAdmin.actorId = site.adminId
        try site.test.services.audit.record(.signInFailed, accountId: site.annId, email: "ann@example.com", client: byAdmin,
                                            detail: "the password was wrong")
        for n in 0..<101 { try site.test.services.audit.record(.passkeyRenamed, accountId: 999, email: nil, client: byAdmin, detail: "\(n)") }
        let pages = [
            site.admin.get(site.uri("invitations")),
            site.admin.post(site.uri("invitations"), ["email": "eve@example.com", "expires_in": "1d"]),
            site.admin.post(site.uri("invitations"), ["email": "bad", "expires_in": "999d"]),
            site.admin.get(site.uri("groups")),
            site.admin.post(site.uri("groups/remove"), ["name": "ops"]),
            site.admin.post(site.uri("groups"), ["name": "two words"]),
            site.admin.get(site.uri("group?name=ops")),
            site.admin.get(site.uri("audit")),
            site.admin.get(site.uri("audit?page=2")),
            site.admin.get(site.uri("audit?since=nope&event=nope")),
        ]
        for (index, page) in pages.enumerated() {
            #expect(page.text.contains("<html lang=\"\(language)\""), "page \(index)")
            #expect(Self.englishWords(page.text).isEmpty, "page \(index): \(Self.englishWords(page.text))")
        }
        // The check sees English where there is some: the same pages in English
        try site.test.services.profile.setLanguage("en", of: site.adminId)
        #expect(Self.englishWords(site.admin.get(site.uri("invitations")).text).contains("the"))
    }
}
