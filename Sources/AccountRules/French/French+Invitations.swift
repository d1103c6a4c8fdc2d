// French+Invitations.swift: French wording of sign-up modes and invitations (`signup = open|invite|closed`).

extension MessageCatalog {
    /// French wording of invite-only and closed sign-up; merged into `french` (a key there must not repeat here).
    static let frenchInvitations: [String: String] = [
        "not_invited": "cette invitation a été envoyée à une autre adresse",
        "invited_hint": "Votre invitation a été envoyée à cette adresse.",
        "invitation_only_title": "Inscription sur invitation uniquement",
        "invitation_only_text": "Les nouveaux comptes ne peuvent être créés que sur invitation. Si vous en avez reçu une, suivez le lien qu’elle contient.",
        "invitation_invalid_title": "Cette invitation ne fonctionne pas",
        "invitation_invalid_text": "Le lien d’invitation n’est pas valide, a déjà été utilisé ou a expiré. Demandez une nouvelle invitation.",
        "sign_up_closed_title": "Les inscriptions sont fermées",
        "sign_up_closed_text": "Il n’est pas possible de créer de nouveaux comptes ici. Demandez un compte à l’administrateur de ce site.",
    ]
}
