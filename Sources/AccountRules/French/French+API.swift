// French+API.swift: French wording of the JSON API for native apps and of email residences.

extension MessageCatalog {
    /// French wording of the JSON API and residences; merged into `french` (a key there must not repeat here).
    static let frenchAPI: [String: String] = [
        // JSON API errors (devise-ios shows them as they are).
        "api_unauthenticated": "Vous devez vous connecter ou créer un compte pour continuer.",
        "api_validation_failed": "Certaines valeurs ne sont pas valides. {messages}",
        "api_bad_request": "La requête n’a pas pu être comprise : envoyez un objet JSON.",
        "api_unsupported_media_type": "Envoyez le corps de la requête au format application/json.",
        "api_reauthentication_required": "Cette action demande une connexion récente : reconnectez-vous, puis réessayez.",
        "api_provider_not_configured": "La connexion avec {provider} n’est pas configurée sur ce serveur.",
        "api_provider_token_invalid": "Le jeton {provider} n’a pas pu être vérifié.",
        "api_provider_token_form_off": "La connexion {provider} depuis une application demande un code d’autorisation (code, code_verifier et redirect_uri) : ce serveur n’accepte pas les jetons d’accès {provider}.",
        "api_provider_unreachable": "Impossible de joindre {provider}. Veuillez réessayer dans un instant.",
        "api_social_address_held": "Un compte existe déjà avec cette adresse. Connectez-vous à ce compte, puis associez-y {provider} dans ses paramètres.",
        "api_social_no_email": "{provider} n’a pas fourni d’adresse e-mail vérifiée. Connectez-vous une fois sur le site avec {provider} et indiquez-y votre adresse, ou créez un compte avec votre adresse e-mail.",
        "api_not_found": "Il n’y a rien à cette adresse.",
        "api_method_not_allowed": "Cette adresse n’accepte pas cette méthode.",
        "api_internal": "Un problème est survenu de notre côté. Veuillez réessayer dans un instant.",
        "api_sign_up_closed": "Il n’est pas possible de créer de nouveaux comptes ici.",
        "api_invitation_required": "L’inscription nécessite une invitation.",
        // The second step of a sign-in (an account with a second factor).
        "api_second_factor_required": "Saisissez le code de votre application d’authentification (ou un code de secours) pour terminer la connexion.",
        "api_second_factor_invalid": "Code non valide.",
        "api_second_factor_expired": "Cette connexion a expiré ou est déjà terminée. Reconnectez-vous.",
        "api_second_factor_enrolment_required": "La validation en deux étapes est obligatoire ici : activez-la dans les paramètres de votre compte sur le web, puis reconnectez-vous.",
        "api_second_factor_browser_only": "Le second facteur de ce compte est une clé d’accès, que les applications ne peuvent pas utiliser. Connectez-vous dans un navigateur, ou activez une application d’authentification dans les paramètres de votre compte.",
        "api_field_code": "Code",

        // Email residences.
        "residence_throttled": "Un lien vient d’être envoyé à cette adresse. Veuillez patienter une minute avant d’en demander un autre.",
        "residence_refused": "Cette adresse ne peut pas servir à se connecter ici.",
        "residence_not_found": "Cette demande n’existe pas ou a expiré.",
        "residence_title": "Autoriser un appareil à se connecter",
        "residence_text": "Un appareil demande à se connecter à {site} avec le compte {email} :",
        "residence_device": "{device}, depuis l’adresse {address}",
        "residence_allow_button": "Autoriser cet appareil",
        "residence_ignore": "Si vous n’êtes pas à l’origine de cette demande, fermez cette page : rien ne se passe sans votre autorisation.",
        "residence_approved_title": "Appareil autorisé",
        "residence_approved_text": "Revenez à l’application : elle peut maintenant se connecter avec le compte {email}.",
        "residence_invalid_title": "Ce lien ne fonctionne pas",
        "residence_invalid_text": "Le lien n’est pas valide, a déjà été utilisé ou a expiré. Demandez-en un nouveau depuis l’application.",
        "residence_refused_title": "Cet appareil ne peut pas se connecter",
        "mail_residence_subject": "Demande de connexion à {site} depuis un appareil",
        "mail_residence_intro": "Un appareil demande à se connecter avec cette adresse :",
        "mail_residence_button": "Vérifier et autoriser",
        "mail_residence_ignore": "Si ce n’était pas vous, ignorez ce message : rien ne se passe sans votre autorisation. Le lien est valable une heure.",

        // Sessions page: API tokens.
        "session_api_token": "Jeton d’application ({device})",
    ]
}
