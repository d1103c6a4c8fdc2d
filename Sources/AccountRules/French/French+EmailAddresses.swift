// French+EmailAddresses.swift: French wording of the email addresses page.

extension MessageCatalog {
    /// French wording of the email addresses page; merged into `french` (a key there must not repeat here).
    static let frenchEmailAddresses: [String: String] = [
        // The page (one word for the state: « confirmée », where English says verified or confirmed).
        "emails_intro": "Vous pouvez vous connecter avec n’importe laquelle de vos adresses confirmées. Les e-mails concernant votre compte sont envoyés à l’adresse principale.",
        "emails_list_caption": "Vos adresses e-mail",
        "emails_column_address": "Adresse",
        "emails_column_state": "État",
        "emails_column_actions": "Actions",
        "address_state_primary": "Principale",
        "address_state_verified": "Confirmée",
        "address_state_unverified": "En attente de confirmation",
        "address_state_primary_unverified": "Principale, en attente de confirmation",
        "address_resend_button": "Renvoyer le lien",
        "address_make_primary_button": "Définir comme principale",
        "address_remove_button": "Supprimer",
        "address_add_title": "Ajouter une adresse",
        "address_add_text": "Nous enverrons un lien à la nouvelle adresse. Vous pourrez l’utiliser une fois ce lien suivi.",
        "address_add_button": "Ajouter l’adresse",

        // Field errors on the add form ("Adresse e-mail : …").
        "address_already_yours": "cette adresse fait déjà partie de vos adresses",
        "address_unavailable": "cette adresse ne peut pas être ajoutée à votre compte",
        "address_limit": "cette adresse ne peut pas être ajoutée, car un compte ne peut pas avoir plus de {count} adresses",

        // Flash messages.
        "address_added": "Adresse ajoutée. Suivez le lien que nous lui avons envoyé pour la confirmer.",
        "address_confirmed": "L’adresse est confirmée. Vous pouvez maintenant l’utiliser pour vous connecter.",
        "address_removed": "Adresse supprimée.",
        "address_resent": "Si l’adresse est toujours en attente de confirmation, un nouveau lien va lui être envoyé.",
        "address_primary_changed": "Votre adresse principale a été modifiée. Nous avons prévenu l’ancienne.",
        "address_last_verified": "Vous ne pouvez pas supprimer votre seule adresse confirmée. Ajoutez-en d’abord une autre et confirmez-la.",
        "address_primary_remove": "Vous ne pouvez pas supprimer votre adresse principale. Définissez d’abord une autre adresse confirmée comme principale.",
        "address_unverified_primary": "Seule une adresse confirmée peut devenir principale. Suivez d’abord le lien que nous lui avons envoyé.",
        "address_not_found": "Cette adresse ne fait pas partie de votre compte.",
    ]
}
