// French+Social.swift: French wording of social sign-in: provider buttons, the behaviour table's outcomes, the pages
// that ask for an address or for the existing account, connected accounts in the settings, and its mails.
// `{provider}` is the provider's display name; it is always named as « le compte {provider} » or left without an
// article or agreement, since a provider's name has no known gender. To link is « associer », to unlink « dissocier ».

extension MessageCatalog {
    /// French wording of social sign-in; merged into `french` (a key there must not repeat here).
    static let frenchSocial: [String: String] = [
        "social_or": "ou",
        "social_sign_in_with": "Se connecter avec {provider}",
        "social_sign_up_with": "S’inscrire avec {provider}",
        "social_continue_with": "Continuer avec {provider}",

        // Outcomes (flash and page messages).
        "social_cancelled": "Vous avez annulé la connexion avec {provider}.",
        "social_failed": "Nous n’avons pas pu vous connecter avec {provider}, qui n’a pas répondu comme prévu. Rien n’a été modifié ; veuillez réessayer plus tard.",
        "social_state_invalid": "Cette tentative de connexion a expiré ou a déjà été utilisée. Veuillez recommencer.",
        "social_pending_invalid": "Cette tentative de connexion a expiré. Veuillez recommencer.",
        "social_identity_taken": "Ce compte {provider} est déjà associé à un autre compte.",
        "social_already_linked": "Un compte {provider} est déjà associé à votre compte.",
        "social_wrong_account": "Ce compte {provider} n’est pas celui qui est associé à votre compte.",
        "social_last_method": "Vous ne pouvez pas dissocier votre compte {provider} : c’est votre seul moyen de connexion. Définissez d’abord un mot de passe.",
        "social_signed_up": "Bienvenue ! Votre compte a été créé avec {provider}.",
        "social_linked": "Votre compte {provider} est maintenant associé.",
        "social_unlinked": "Votre compte {provider} a été dissocié.",
        "social_sign_up_closed": "Les inscriptions sont fermées : ce compte {provider} n’est associé à aucun compte ici.",
        "social_invitation_required": "L’inscription nécessite une invitation : ce compte {provider} n’est associé à aucun compte ici.",

        // Asking for an address (no address or an unverified one from the provider).
        "social_email_title": "Encore une étape",
        "social_email_text": "{provider} ne nous a pas fourni d’adresse e-mail vérifiée. Saisissez la vôtre : nous vous enverrons un lien pour la confirmer.",
        "social_email_button": "Continuer",

        // Linking to the existing account that holds the address.
        "social_link_title": "Associer {provider} à votre compte",
        "social_link_text": "Un compte existe déjà ici avec l’adresse {email}. Connectez-vous à ce compte pour y associer votre compte {provider} : nous n’associons jamais de comptes sans vous.",
        "social_link_button": "Se connecter et associer",
        "social_link_with": "Se connecter avec {provider} et associer",
        "social_link_no_password": "Ce compte n’a pas de mot de passe. Connectez-vous avec un service qui lui est associé, ou définissez un mot de passe avec « Mot de passe oublié ? ».",

        // The picker: several accounts could take the identity.
        "social_pick_title": "Choisissez votre compte",
        "social_pick_text": "Votre compte {provider} pourrait correspondre à plusieurs comptes ici. Choisissez celui auquel l’associer : vous vous connectez d’abord à ce compte, et {provider} n’est associé qu’à lui.",
        "social_pick_signed_in_here": "connecté dans ce navigateur",
        "social_pick_button": "Associer à ce compte",
        "social_pick_cancel": "N’en associer aucun",

        // Settings: connected accounts.
        "settings_connections": "Comptes associés",
        "connections_title": "Comptes associés",
        "connections_text": "Vos comptes sur d’autres sites, avec lesquels vous pouvez vous connecter.",
        "connections_empty": "Aucun compte d’un autre site n’est encore associé.",
        "connections_linked_at": "Associé le",
        "connections_last_used": "Dernière utilisation",
        "connections_never": "jamais",
        "connections_unlink_button": "Dissocier",
        "connections_link_button": "Associer {provider}",
        "connections_available": "Associer un autre compte",
        "connections_no_password": "Votre compte n’a pas de mot de passe : vous vous connectez uniquement avec les comptes associés ici.",

        // Setting a first password (accounts made through a provider).
        "password_set_title": "Définir un mot de passe",
        "password_set_text": "Votre compte n’a pas encore de mot de passe : vous vous connectez avec un compte associé. Définissez-en un pour pouvoir aussi vous connecter avec votre adresse e-mail.",

        // Re-authentication with a provider.
        "reauthenticate_with": "Confirmer avec {provider}",

        // Mails.
        "mail_identity_linked_subject": "Un compte {provider} a été associé à votre compte {site}",
        "mail_identity_unlinked_subject": "Un compte {provider} a été dissocié de votre compte {site}",
        "mail_identity_linked_intro": "Un compte d’un autre site a été associé à votre compte. Il peut désormais servir à vous connecter :",
        "mail_identity_linked_not_you": "Si vous n’êtes pas à l’origine de cette action, dissociez-le dans vos paramètres et modifiez votre mot de passe :",
        "mail_identity_unlinked_intro": "Un compte d’un autre site a été dissocié de votre compte. Il ne peut plus servir à vous connecter :",
        "mail_identity_unlinked_not_you": "Si vous n’êtes pas à l’origine de cette action, vérifiez les comptes associés dans vos paramètres :",

        "confirmed_provider_unlinked": "Votre adresse e-mail est confirmée. {provider} n’a pas été associé à ce compte : le lien a été ouvert dans un autre navigateur que celui qui s’est connecté avec {provider}. Si ce compte {provider} est le vôtre, choisissez un mot de passe (« Mot de passe oublié ? »), connectez-vous et associez-le dans vos paramètres.",
        "reset_linked_providers": "La connexion avec {providers} est aussi associée à ce compte. Si l’un d’eux n’est pas à vous, dissociez-le dans vos paramètres une fois le mot de passe choisi.",
        "mail_password_changed_providers": "La connexion avec ces services ouvre aussi votre compte :",
        "mail_password_changed_providers_not_you": "Si l’un d’eux n’est pas à vous, dissociez-le dans vos paramètres :",
    ]
}
