// TemplateMailComposerTests.swift: mail worded in the language asked for (subject, text, HTML and `<html lang>`), and
// in the default language when that one is not offered.
import AccountCore
import AccountRules
import Foundation
import Testing
@testable import WebFront

struct TemplateMailComposerTests {
    /// A composer over the repository's templates with `configure` applied to a default configuration.
    private func composer(_ configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TemplateMailComposer {
        var configuration = AppConfiguration()
        configuration.templates.path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("templates").path
        configuration.siteName = "Example"
        configure(&configuration)
        let renderer = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration))
        return TemplateMailComposer(renderer: renderer, configuration: configuration)
    }

    @Test func aFrenchMailHasAFrenchSubjectBodyAndHTMLLanguage() throws {
        let mail = try composer().compose(.passwordReset(token: "tok"), to: "ann@example.com", language: "fr")
        #expect(mail.subject == "Réinitialisez votre mot de passe pour Example")
        #expect(mail.html.contains(#"<html lang="fr">"#))
        #expect(mail.html.contains(MessageCatalog.french.text("mail_password_reset_intro")))
        #expect(mail.text.contains(MessageCatalog.french.text("mail_password_reset_intro")))
        #expect(!mail.html.contains(MessageCatalog.english.text("mail_password_reset_intro")))
        #expect(mail.text.contains("http://127.0.0.1:8080/account/password/edit?token=tok"))
    }

    @Test func aGermanMailIsGerman() throws {
        let mail = try composer().compose(.invitation(token: "tok"), to: "ann@example.com", language: "de")
        #expect(mail.subject == "Sie wurden zu Example eingeladen")
        #expect(mail.html.contains(#"<html lang="de">"#))
    }

    @Test func aRegionTagGetsItsLanguage() throws {
        let mail = try composer().compose(.passwordReset(token: "tok"), to: "ann@example.com", language: "fr-CA")
        #expect(mail.subject == "Réinitialisez votre mot de passe pour Example" && mail.html.contains(#"<html lang="fr">"#))
    }

    @Test(arguments: [nil, "es", "", "zz-top"] as [String?])
    func aLanguageNotOfferedFallsBackToTheDefault(language: String?) throws {
        let english = try composer().compose(.passwordReset(token: "tok"), to: "ann@example.com", language: language)
        #expect(english.subject == "Reset your password for Example")
        #expect(english.html.contains(#"<html lang="en">"#))
        let german = try composer { $0.languages.defaultLanguage = "de" }
            .compose(.passwordReset(token: "tok"), to: "ann@example.com", language: language)
        #expect(german.subject == "Ihr Passwort für Example zurücksetzen")
        #expect(german.html.contains(#"<html lang="de">"#))
    }

    @Test func aBuiltInLanguageTheSiteDoesNotOfferIsNotUsed() throws {
        let mail = try composer { $0.languages.available = "en, de" }.compose(.passwordReset(token: "tok"), to: "ann@example.com", language: "fr")
        #expect(mail.subject == "Reset your password for Example" && mail.html.contains(#"<html lang="en">"#))
    }

    @Test func theOperatorsMessagesWordTheMailOfTheirLanguage() throws {
        let composer = try composer { $0.languages.messages = ["fr": ["mail_password_reset_subject": "Nouveau mot de passe pour {site}"]] }
        #expect(try composer.compose(.passwordReset(token: "t"), to: "a@example.com", language: "fr").subject == "Nouveau mot de passe pour Example")
        #expect(try composer.compose(.passwordReset(token: "t"), to: "a@example.com", language: "en").subject == "Reset your password for Example")
    }

    @Test func theResidenceMailDescribesTheDeviceInTheMailsLanguage() throws {
        let kind = MailKind.residence(token: "tok", userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
                                      remoteAddress: "192.0.2.1")
        let french = try composer().compose(kind, to: "ann@example.com", language: "fr")
        let english = try composer().compose(kind, to: "ann@example.com", language: "en")
        #expect(french.html.contains(#"<html lang="fr">"#) && french.text.contains("192.0.2.1"))
        #expect(french.text != english.text)
        #expect(french.subject == MessageCatalog.french.text("mail_residence_subject", ["site": "Example"]))
    }
}
