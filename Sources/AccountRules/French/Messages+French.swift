// Messages+French.swift: the French catalog, merged from the French parts in this folder.

extension MessageCatalog {
    /// French wording of every message.
    ///
    /// Conventions for every French part: vouvoiement; the apostrophe ’ (U+2019); a no-break space (U+00A0) before
    /// « : ; ? ! » and inside « guillemets »; no past participle that would give the reader a gender. A validation
    /// message is a lowercase clause with its own subject (« ce champ… », « cette valeur… »), shown after the field's
    /// name and a colon (`error_full_message`), so it reads the same whatever the field's gender, an operator's
    /// declared field and an operator's own message included.
    public static let french = MessageCatalog(strings: frenchBrowserID.merging(frenchInvitations) { first, _ in first }
        .merging(frenchSettings) { first, _ in first }.merging(frenchEmailAddresses) { first, _ in first }
        .merging(frenchAccountSettings) { first, _ in first }.merging(frenchProfile) { first, _ in first }
        .merging(frenchSocial) { first, _ in first }.merging(frenchAPI) { first, _ in first }
        .merging(frenchSecondFactor) { first, _ in first }
        .merging(frenchOneTimeCodes) { first, _ in first }
        .merging(frenchPage) { first, _ in first }.merging(frenchGroups) { first, _ in first }.merging(frenchUsername) { first, _ in first }
        .merging(frenchPasskeys) { first, _ in first }.merging(frenchOpenID) { first, _ in first }
        .merging(frenchOpenIDDevice) { first, _ in first }
        .merging(frenchOpenIDLogout) { first, _ in first }
        .merging(frenchAdmin) { first, _ in first }.merging(frenchAdminPeople) { first, _ in first }.merging(frenchAdminLists) { first, _ in first }.merging(frenchAdminHealth) { first, _ in first }.merging([
        // Validation: "{attribute} : {message}", the message a clause with its own subject.
        "error_full_message": "{attribute} : {message}",
        "blank": "ce champ doit être rempli",
        "too_short": "cette valeur est trop courte (au moins {count} caractères)",
        "common_password": "ce mot de passe fait partie des plus courants : choisissez-en un plus difficile à deviner",
        "too_long": "cette valeur est trop longue ({count} caractères au maximum)",
        "invalid_email": "ce n’est pas une adresse e-mail valide",
        "invalid": "cette valeur n’est pas valide",
        "confirmation": "cette valeur ne correspond pas au champ « {attribute} »",
        "taken": "cette valeur est déjà utilisée",
        "inclusion": "cette valeur ne fait pas partie des choix proposés",
        "form_has_errors": "Veuillez corriger les erreurs ci-dessous.",

        // Field names.
        "field_email": "Adresse e-mail",
        "field_password": "Mot de passe",
        "field_password_confirmation": "Confirmation du mot de passe",
        "field_remember_me": "Se souvenir de moi sur cet appareil",

        // Sign in.
        "sign_in_title": "Connexion",
        "sign_in_button": "Se connecter",
        "sign_in_failed": "Adresse e-mail ou mot de passe incorrect.",
        "sign_in_link": "Vous avez déjà un compte ? Connectez-vous",
        "signed_in": "Connexion réussie.",
        "sign_in_required": "Veuillez vous connecter pour continuer.",

        // Sign up.
        "sign_up_title": "Créer votre compte",
        "sign_up_button": "Créer un compte",
        "sign_up_link": "Pas encore de compte ? Créez-en un",
        "signed_up": "Bienvenue ! Votre compte a été créé.",
        "password_hint": "Au moins {count} caractères.",

        // Home and sign out.
        "home_title": "Votre compte",
        "signed_in_as": "Vous utilisez le compte {email}",
        "sign_out_button": "Se déconnecter",
        "signed_out": "Déconnexion réussie.",

        // Confirmation.
        "check_email_title": "Consultez vos e-mails",
        "check_email_text": "Nous avons envoyé un message à l’adresse indiquée. Suivez le lien qu’il contient pour confirmer votre adresse, puis connectez-vous.",
        "confirmed": "Votre adresse e-mail est confirmée. Vous pouvez maintenant vous connecter.",
        "unconfirmed": "Vous devez confirmer votre adresse e-mail avant de vous connecter.",
        "confirmation_invalid_title": "Ce lien ne fonctionne pas",
        "confirmation_invalid_text": "Le lien de confirmation n’est pas valide, a déjà été utilisé ou a expiré. Demandez-en un nouveau ci-dessous.",
        "resend_confirmation_title": "Renvoyer le lien de confirmation",
        "resend_confirmation_button": "Envoyer un nouveau lien",
        "resend_confirmation_link": "Vous n’avez pas reçu l’e-mail de confirmation ?",
        "resend_confirmation_sent": "Si cette adresse est en attente de confirmation, un nouveau lien va lui être envoyé.",

        // Password reminder and reset.
        "reminder_title": "Mot de passe oublié ?",
        "reminder_text": "Saisissez votre adresse e-mail : nous vous enverrons un lien pour choisir un nouveau mot de passe.",
        "reminder_button": "Envoyer le lien",
        "reminder_link": "Mot de passe oublié ?",
        "reminder_sent": "Si un compte existe avec cette adresse, un lien pour réinitialiser le mot de passe va lui être envoyé. Il est valable une heure.",
        "reset_title": "Choisir un nouveau mot de passe",
        "reset_button": "Modifier mon mot de passe",
        "reset_invalid_title": "Ce lien ne fonctionne pas",
        "reset_invalid_text": "Le lien de réinitialisation du mot de passe n’est pas valide, a déjà été utilisé ou a expiré. Demandez-en un nouveau ci-dessous.",
        "password_changed": "Votre mot de passe a été modifié et votre session est ouverte.",
        "field_new_password": "Nouveau mot de passe",

        // Mail.
        "mail_greeting": "Bonjour,",
        "mail_confirmation_subject": "Confirmez votre adresse e-mail pour {site}",
        "mail_confirmation_intro": "Veuillez confirmer votre adresse e-mail en suivant ce lien :",
        "mail_confirmation_button": "Confirmer mon adresse",
        "mail_confirmation_ignore": "Si vous n’avez pas créé de compte, vous pouvez ignorer ce message.",
        "mail_sign_up_attempt_subject": "Quelqu’un a tenté de créer un compte {site} avec votre adresse",
        "mail_sign_up_attempt_intro": "Quelqu’un, peut-être vous, a essayé de créer un compte avec cette adresse e-mail, alors qu’un compte l’utilise déjà.",
        "mail_sign_up_attempt_sign_in": "Pour vous connecter :",
        "mail_sign_up_attempt_reset": "Si vous avez oublié votre mot de passe, réinitialisez-le ici :",
        "mail_sign_up_attempt_ignore": "Si ce n’était pas vous, vous pouvez ignorer ce message : rien n’a été modifié.",
        "mail_password_reset_subject": "Réinitialisez votre mot de passe pour {site}",
        "mail_password_reset_intro": "Quelqu’un a demandé à réinitialiser le mot de passe de votre compte. Pour choisir un nouveau mot de passe, suivez ce lien (valable une heure) :",
        "mail_password_reset_button": "Choisir un nouveau mot de passe",
        "mail_password_reset_ignore": "Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer ce message : votre mot de passe reste inchangé.",
        "mail_account_locked_subject": "Votre compte {site} est temporairement verrouillé",
        "mail_account_locked_intro": "Plusieurs tentatives de connexion à votre compte ont échoué ; il est donc verrouillé pendant un moment. Il se déverrouillera de lui-même : vous n’avez rien à faire.",
        "mail_account_locked_reset": "Si vous n’êtes pas l’auteur de ces tentatives, choisissez dès maintenant un nouveau mot de passe (ce lien déverrouille aussi le compte) :",
        "mail_account_locked_button": "Choisir un nouveau mot de passe",
        "mail_invitation_subject": "Invitation à rejoindre {site}",
        "mail_invitation_intro": "Vous avez reçu une invitation à créer un compte avec cette adresse e-mail. Suivez ce lien pour vous inscrire :",
        "mail_invitation_button": "Créer mon compte",
        "mail_invitation_ignore": "Si vous ne vous attendiez pas à ce message, vous pouvez l’ignorer.",
        "mail_password_changed_subject": "Le mot de passe de votre compte {site} a été modifié",
        "mail_password_changed_intro": "Le mot de passe de votre compte vient d’être modifié, et toutes les autres sessions ont été déconnectées.",
        "mail_password_changed_not_you": "Si vous n’êtes pas à l’origine de cette modification, réinitialisez votre mot de passe sans attendre :",

        // Errors shown as pages.
        "error_title": "Une erreur s’est produite",
        "error_not_found": "Il n’y a aucune page à cette adresse.",
        "error_method_not_allowed": "Cette page ne peut pas être utilisée de cette façon.",
        "error_forbidden_csrf": "Ce formulaire a expiré ou n’a pas été envoyé depuis ce site. Revenez en arrière, rechargez la page et réessayez.",
        "error_payload_too_large": "Les données envoyées sont trop volumineuses.",
        "error_bad_request": "La requête n’a pas pu être comprise.",
        "sign_up_rate_limited_title": "Veuillez réessayer plus tard",
        "sign_up_rate_limited_text": "Trop de comptes ont été créés depuis votre réseau ces derniers temps. Veuillez réessayer plus tard.",
        "error_internal": "Un problème est survenu de notre côté. Veuillez réessayer dans un instant.",
        "error_unavailable": "Nous ne pouvons pas enregistrer de modification pour le moment : rien n'a été changé. Veuillez réessayer dans quelques minutes.",
        "error_back_home": "Revenir à la page d’accueil",
    ]) { first, _ in first })
}
