// AdminTestKit.swift: a site with one admin signed in (and, for the pages' tests, a person to act on).
import AccountCore
import Foundation
import Testing
@testable import WebFront

/// The CLI's client, as `frontdoor group` records it.
let adminTestCLI = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

/// A site where `admin@example.com` (account 1) is in `admins` and signed in in `admin`; `ann@example.com` (account 2)
/// signed up too, signed in in `ann`. Second factors are not required unless `configure` says so; sign-in stays
/// recent for `admin.reauthenticate_after` (5 min) from the fixed clock's start.
struct AdminSite {
    let test: TestApp
    let admin: TestBrowser
    let ann: TestBrowser
    let adminId: Int64 = 1
    let annId: Int64 = 2

    init(configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        test = try makeApp { configuration in
            configuration.confirmation.required = false
            configuration.admin.requireSecondFactor = false
            configure(&configuration)
        }
        admin = TestBrowser(test.app)
        ann = TestBrowser(test.app)
        let password = "correct horse"
        #expect(admin.post("/account/sign_up", ["email": "admin@example.com", "password": password, "password_confirmation": password]).status == 303)
        #expect(ann.post("/account/sign_up", ["email": "ann@example.com", "password": password, "password_confirmation": password]).status == 303)
        try test.services.groups.add(name: "admins", client: adminTestCLI)
        try test.services.groups.change(accountId: adminId, adding: ["admins"], removing: [], client: adminTestCLI)
    }

    /// `path` below `/account/admin/`.
    func uri(_ path: String) -> String { "/account/admin/" + path }
}
