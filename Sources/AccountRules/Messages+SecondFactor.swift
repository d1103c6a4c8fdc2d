// Messages+SecondFactor.swift: English wording of the second step of a sign-in, the step-up the gate asks for, the
// `second_factor: required` policy and the operator's reset (SecondFactorPage, UserCommand+SecondFactor).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishSecondFactor: [String: String] = [
        "second_factor_title": "Two-step sign-in",
        "second_factor_text": "Enter the code from your authenticator app, or one of your recovery codes.",
        "second_factor_step_up_text": "This page asks for your second step. Enter the code from your authenticator app, or one of your recovery codes.",
        "second_factor_field_code": "Code",
        "second_factor_code_hint": "6 digits from the app, or a recovery code",
        "second_factor_button": "Verify",
        "second_factor_wrong_code": "is not right, or was used already",
        "second_factor_expired": "That sign-in took too long. Please sign in again.",
        "second_factor_required": "Enter the code of your second step to finish signing in.",
        "second_factor_none": "This page needs two-step sign-in, which your account does not have yet. Set it up first.",
        "second_factor_set_up_link": "Set up two-step sign-in",
        "second_factor_passkey_link": "Add a passkey instead",
        "second_factor_enrol_required": "Please finish two-step sign-in (or set it up) to go on.",
        "second_factor_other_account": "Sign in with another account",
        "second_factor_passed": "Verified.",
    ]
}
