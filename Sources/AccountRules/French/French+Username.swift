// French+Username.swift: French wording of usernames.

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchUsername: [String: String] = [
        "username_label": "Nom d’utilisateur",
        "username_characters": "ce nom ne peut contenir que des lettres, des chiffres, « . », « _ » et « - »",
        "username_start": "ce nom doit commencer par une lettre",
        "username_marks": "ce nom ne peut ni finir par « . », « _ » ou « - », ni en avoir deux à la suite",
        "username_reserved": "ce nom est réservé",
        "username_fixed": "Votre nom d’utilisateur est donné par le site et ne peut pas être modifié.",
        "username_hint": "Le nom sous lequel les applications du site vous connaissent : lettres, chiffres, « . », « _ » et « - », commençant par une lettre et sans signe à la fin, 32 caractères au maximum.",
        "username_optional_hint": "Facultatif : laissé vide, il est tiré de votre adresse.",
        "username_title": "Nom d’utilisateur",
        "username_button": "Changer de nom d’utilisateur",
        "username_changed": "Votre nom d’utilisateur a été modifié.",
    ]
}
