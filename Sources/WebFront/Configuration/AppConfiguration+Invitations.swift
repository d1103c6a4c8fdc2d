// AppConfiguration+Invitations.swift: the sign-up link an invitation's token goes in, built in one place for the
// invitation mail (TemplateMailComposer), `frontdoor invite create` and the admin page (`admin/invitations`).
//
// Options: `public_url`, `base_path`. The link is absolute: it is sent by mail or by hand, read outside this site.

extension AppConfiguration {
    /// `public_url` + the sign-up path + `?invite=TOKEN` (the token is base64url: nothing to escape).
    public func invitationLink(token: String) -> String {
        publicURL + SitePaths(base: basePath).path("sign_up") + "?invite=" + token
    }
}
