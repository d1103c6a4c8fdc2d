// TwoStepPage.swift: settings/two_step: two-step sign-in with an authenticator app (one-time codes, RFC 6238) and
// its recovery codes.
//
// GET shows the state: off (a "set up" button), enrolling (the QR code, the key as text in groups of four, the
// otpauth:// link, and a field for the first code), or on (recovery codes left, "new recovery codes", "turn off").
// POST settings/two_step/begin makes a new secret (replacing one begun before); POST settings/two_step (field `code`)
// confirms it with a first code and answers with the ten recovery codes: shown in that response only, never again
// (every response is Cache-Control: no-store, SecurityHeaders). POST …/recovery_codes shows ten new ones the same way;
// POST …/off turns codes off.
// Options: `site_name` (the issuer the app shows), `session.reauthenticate_after`: every change, and showing the
// secret of an enrolment begun, needs a recent sign-in (the existing re-authentication page, then back here).
import AccountCore
import AccountRules
import Foundation

/// `GET|POST <base>/settings/two_step` and its actions.
struct TwoStepPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let oneTimeCodes: OneTimeCodes
    let reauthentication: Reauthentication
    init(_ core: AccountServices) { (oneTimeCodes, reauthentication) = (core.oneTimeCodes, core.reauthentication) }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        return try render(context, session: session)
    }

    func begin(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        do {
            _ = try oneTimeCodes.begin(session: session.digest)
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert))
        }
        return context.redirect(to: path(context))
    }

    func confirm(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        do {
            let codes = try oneTimeCodes.confirm(session: session.digest, code: context.form["code"] ?? "", client: context.client)
            return try renderCodes(context, codes, flash: Flash("two_step_turned_on"))
        } catch AccountError.invalid(let errors) {
            return try render(context, session: session, errors: errors)
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert))
            return context.redirect(to: path(context))
        }
    }

    func renew(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        do {
            return try renderCodes(context, try oneTimeCodes.renewRecoveryCodes(session: session.digest, client: context.client))
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert))
            return context.redirect(to: path(context))
        }
    }

    func turnOff(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        do {
            try oneTimeCodes.turnOff(session: session.digest, client: context.client)
            context.flash.set(Flash("two_step_turned_off"))
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert))
        }
        return context.redirect(to: path(context))
    }

    private func path(_ context: RequestContext) -> String { context.site.paths.path("settings/two_step") }

    /// The page in the account's state; an enrolment begun is shown only to a recent sign-in (it shows the secret).
    private func render(_ context: RequestContext, session: SessionInfo, errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.catalog
        let state = try oneTimeCodes.state(accountId: session.accountId)
        var values: [String: Any] = [:]
        if state.enabled {
            values["enabled"] = ["codes_left": catalog.text("two_step_codes_left", ["count": String(state.recoveryCodesLeft)]),
                                 "codes_low": state.recoveryCodesLeft <= 3]
        } else if state.enrolling, try reauthentication.isRecent(session.digest), let enrolment = try oneTimeCodes.pending(accountId: session.accountId) {
            let uri = enrolment.uri(issuer: context.site.configuration.siteName, label: session.email)
            let code = InputSpec(name: "code", type: "text", autocomplete: "one-time-code", keepsValue: false, hintKey: "two_step_code_hint",
                                 labelKey: "two_step_code_label")
            var enrolling = FormView.fields([code], form: [:], errors: errors, catalog: catalog)
            enrolling["qr_svg"] = QRCodeSVG.svg(uri, label: catalog.text("two_step_qr_label")) ?? ""
            enrolling["secret"] = enrolment.groupedSecret
            enrolling["uri"] = uri
            values["enrolling"] = enrolling
            if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        } else {
            values["off"] = true
        }
        return try context.layout.settingsPage("settings_two_step", section: "two_step", values)
    }

    /// The recovery codes, in this response only.
    private func renderCodes(_ context: RequestContext, _ codes: [String], flash: Flash? = nil) throws -> Response {
        var values: [String: Any] = ["recovery_codes": codes.map { ["code": $0] }, "show_codes": true]
        values["nav"] = ["two_step": true]
        values["wide"] = true
        return try context.layout.page("settings_two_step", values, flash: flash)
    }
}
