import CCurl
import Testing
@testable import AccountCore

/// The wording of failed deliveries (the queue records it; `frontdoor mail list` shows it). The TLS and AUTH paths
/// themselves run against real servers in Tests/e2e/test_mail_tls.py.
struct SMTPTransportTests {
    @Test func aRefusedCertificateNamesTheCauseAndTheKeyToSet() {
        let error = SMTPTransport.failure(CURLE_PEER_FAILED_VERIFICATION,
                                          detail: "SSL certificate problem: unable to get local issuer certificate\n",
                                          url: "smtps://mail.example.com:465")
        #expect(error.description.hasPrefix("mail: SMTP delivery to smtps://mail.example.com:465 failed: the server's TLS certificate was refused"))
        #expect(error.description.contains("mail.smtp_ca_file"))
        #expect(error.description.hasSuffix(": SSL certificate problem: unable to get local issuer certificate"))
    }

    @Test func eachKnownFailureSaysWhichKeyDecidesIt() {
        let cases: [(CURLcode, String)] = [
            (CURLE_LOGIN_DENIED, "the server refused the login (mail.smtp_username / smtp_password)"),
            (CURLE_USE_SSL_FAILED, "the server does not offer STARTTLS (mail.smtp_starttls is on)"),
            (CURLE_SSL_CACERT_BADFILE, "cannot read the CA certificates of mail.smtp_ca_file"),
        ]
        for (code, cause) in cases {
            #expect(SMTPTransport.failure(code, detail: "", url: "smtp://127.0.0.1:25").description
                    == "mail: SMTP delivery to smtp://127.0.0.1:25 failed: \(cause)")
        }
        let other = SMTPTransport.failure(CURLE_COULDNT_CONNECT, detail: "", url: "smtp://127.0.0.1:1").description
        #expect(other == "mail: SMTP delivery to smtp://127.0.0.1:1 failed: " + String(cString: curl_easy_strerror(CURLE_COULDNT_CONNECT)))
    }

    @Test func credentialsWrittenInTheURLAreNeverShown() {
        #expect(SMTPTransport.redacted("smtps://ann:hunter2@mail.example.com:465") == "smtps://mail.example.com:465")
        #expect(SMTPTransport.redacted("smtp://ann@mail.example.com") == "smtp://mail.example.com")
        #expect(SMTPTransport.redacted("smtp://mail.example.com:587/client?x=a@b") == "smtp://mail.example.com:587/client?x=a@b")
        let error = SMTPTransport.failure(CURLE_LOGIN_DENIED, detail: "Authentication failed: 535", url: "smtps://ann:hunter2@mail.example.com")
        #expect(!error.description.contains("hunter2") && !error.description.contains("ann"))
    }
}
