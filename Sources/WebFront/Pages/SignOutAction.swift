// SignOutAction.swift: POST ends this browser's session and returns to the sign-in page.
import AccountCore
import FastCGI

/// `POST <base>/sign_out`. With a live session the CSRF token is required; without one there is nothing to end.
struct SignOutAction: Sendable {
    func submit(_ context: RequestContext) throws -> Response {
        if try context.session() != nil {
            try context.verifyCSRF()
            if let token = context.sessionToken { try context.site.services.authentication.signOut(token: token, client: context.client) }
        }
        context.clearSession()
        context.setFlash(Flash("signed_out"))
        return context.redirect(to: context.site.paths.signIn())
    }
}
