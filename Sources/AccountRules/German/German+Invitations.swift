// German+Invitations.swift: German wording of sign-up modes and invitations (`signup = open|invite|closed`).

extension MessageCatalog {
    /// German wording of invite-only and closed sign-up; merged into `german` (a key there must not repeat here).
    static let germanInvitations: [String: String] = [
        "not_invited": "ist nicht die Adresse, für die diese Einladung gilt",
        "invited_hint": "Sie wurden mit dieser Adresse eingeladen.",
        "invitation_only_title": "Registrierung nur mit Einladung",
        "invitation_only_text": "Neue Konten können nur mit einer Einladung erstellt werden. Wenn Sie eine Einladung erhalten haben, folgen Sie dem Link darin.",
        "invitation_invalid_title": "Diese Einladung funktioniert nicht",
        "invitation_invalid_text": "Der Einladungslink ist ungültig, wurde bereits verwendet oder ist abgelaufen. Bitten Sie um eine neue Einladung.",
        "sign_up_closed_title": "Die Registrierung ist geschlossen",
        "sign_up_closed_text": "Hier können keine neuen Konten erstellt werden. Wenden Sie sich an die Administration dieser Website, wenn Sie ein Konto benötigen.",
    ]
}
