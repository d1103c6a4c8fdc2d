// French+Profile.swift: French wording of the profile page and declared fields.

extension MessageCatalog {
    /// French wording of the profile page; merged into `french` (a key there must not repeat here).
    static let frenchProfile: [String: String] = [
        "profile_title": "Votre profil",
        "profile_intro": "Ce que les autres voient de vous sur ce site. Vous pouvez le modifier sans saisir votre mot de passe.",
        "profile_button": "Enregistrer le profil",
        "profile_updated": "Votre profil a été mis à jour.",
        "display_name_hint": "Facultatif : le nom que voient les autres, 100 caractères au maximum.",
        // Validation of declared fields of type number ("{attribute} : …").
        "not_a_number": "cette valeur n’est pas un nombre",
    ]
}
