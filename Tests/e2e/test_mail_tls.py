"""Mail over TLS with AUTH to real SMTP servers (aiosmtpd): STARTTLS required by the server, implicit TLS (smtps), and
AUTH checked by an authenticator. The servers' certificates come from a private CA made in the module's temp folder
(openssl); frontdoor trusts it through mail.smtp_ca_file, with verification on. A certificate that is not trusted or
not for the host name, and a wrong password, leave the mail queued with a clear error that `frontdoor mail list`
shows; the password appears in no log, command line or error.
"""
import contextlib
import hmac
import json
import os
import ssl
import subprocess

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword

from http_client import Browser
from mails import MailSink
from stack import BIN, ROOT, Stack, running
from users import unique_email
from waits import wait_for

# The implicit-TLS servers take AUTH without STARTTLS (their socket is TLS already), which aiosmtpd warns about.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")

USER, SECRET = "frontdoor-mailer", "s3cret-Smtp-Pass-9f2c"
PASSWORD = "mail goes out over tls 77"


def openssl(*arguments, cwd):
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True, capture_output=True, timeout=60)


def issue(folder, name, alt_names, ca="ca"):
    """A server key and certificate `name`.pem signed by the CA `ca`, for `alt_names` (subjectAltName text)."""
    (folder / f"{name}.ext").write_text(f"subjectAltName={alt_names}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", f"/CN={name}",
            "-keyout", f"{name}.key", "-out", f"{name}.csr", cwd=folder)
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial", "-days", "2",
            "-extfile", f"{name}.ext", "-out", f"{name}.pem", cwd=folder)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A private CA (ca.pem) and two server certificates it signed: `server` for 127.0.0.1, `elsewhere` for another name."""
    folder = tmp_path_factory.mktemp("pki")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=Frontdoor test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-keyout", "ca.key", "-out", "ca.pem", cwd=folder)
    issue(folder, "server", "IP:127.0.0.1")
    issue(folder, "elsewhere", "DNS:mail.elsewhere.test")
    return folder


def server_context(pki, name):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(pki / f"{name}.pem", pki / f"{name}.key")
    return context


def check_login(server, session, envelope, mechanism, auth_data):
    """aiosmtpd's authenticator: only USER with SECRET (compared in constant time) gets in."""
    ok = (isinstance(auth_data, LoginPassword) and auth_data.login == USER.encode()
          and hmac.compare_digest(auth_data.password, SECRET.encode()))
    return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)


class TLSSink(MailSink):
    """The mailbox sink behind TLS (STARTTLS or implicit) that takes mail only after AUTH; it notes for each message
    whether the session was authenticated and (for STARTTLS) encrypted."""

    def __init__(self, **smtp):
        super().__init__(auth_required=True, authenticator=check_login, **smtp)
        self.sessions = []

    async def handle_DATA(self, server, session, envelope):
        self.sessions.append({"authenticated": session.authenticated, "starttls": session.ssl is not None,
                              "login": session.login_data})
        return await super().handle_DATA(server, session, envelope)


def starttls_sink(pki, name="server"):
    return TLSSink(tls_context=server_context(pki, name), require_starttls=True, auth_require_tls=True)


def smtps_sink(pki, name="server"):
    # Implicit TLS: the socket itself is TLS, so AUTH needs no STARTTLS first.
    return TLSSink(ssl_context=server_context(pki, name), auth_require_tls=False)


def mail_config(url, pki=None, secret=SECRET, **more):
    config = {"mail.transport": "smtp", "mail.smtp_url": url, "mail.smtp_username": USER, "mail.smtp_password": secret,
              "mail.from": "Frontdoor <no-reply@frontdoor.test>", **more}
    if pki:
        config["mail.smtp_ca_file"] = str(pki / "ca.pem")
    return config


@contextlib.contextmanager
def stack_with(tmp_path_factory, config):
    stack_process = running(Stack(tmp_path_factory.mktemp("tls"), config))
    stack = next(stack_process)
    try:
        yield stack
    finally:
        next(stack_process, None)


def sign_up(stack):
    email = unique_email("tls")
    response = Browser(stack).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert response.status_code == 200 and "<h1>Check your email</h1>" in response.text, response.text
    return email


def queue(stack):
    """`frontdoor mail list --json`: what an operator sees."""
    listed = subprocess.run([BIN, "mail", "list", "--json", "--config", str(stack.config_path)], capture_output=True,
                            text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)


def failed_delivery(stack, email):
    """The queued mail to `email` once a delivery attempt has failed, as `frontdoor mail list` shows it."""
    return wait_for(lambda: next((m for m in queue(stack) if m["recipient"] == email and m["lastError"]), None),
                    what=f"a failed delivery to {email}")


def assert_secret_kept(stack, *texts):
    """The SMTP password is in no log line, no error shown, no process's command line."""
    for text in (stack.app_log_text(), *texts):
        assert SECRET not in text
    assert SECRET.encode() not in open(f"/proc/{stack.app.pid}/cmdline", "rb").read()


@pytest.mark.parametrize("mode", ["starttls", "smtps"])
def test_confirmation_mail_goes_out_over_tls_with_auth(tmp_path_factory, pki, mode):
    sink = starttls_sink(pki) if mode == "starttls" else smtps_sink(pki)
    scheme = "smtp" if mode == "starttls" else "smtps"
    extra = {"mail.smtp_starttls": "true"} if mode == "starttls" else {}
    with sink, stack_with(tmp_path_factory, mail_config(f"{scheme}://127.0.0.1:{sink.port}", pki, **extra)) as stack:
        email = sign_up(stack)
        mail = sink.wait_for_mail(email, "/account/confirm?token=")
        assert mail["from"] == "no-reply@frontdoor.test"
        assert sink.sessions[-1]["authenticated"] and sink.sessions[-1]["login"] == USER.encode()
        if mode == "starttls":
            assert sink.sessions[-1]["starttls"], "the message came after STARTTLS"
        assert wait_for(lambda: next((m for m in queue(stack) if m["recipient"] == email and m["sentAt"]), None),
                        what="the mail marked sent")["attempts"] == 1
        assert_secret_kept(stack)


def test_a_wrong_password_is_a_clear_error_in_the_queue(tmp_path_factory, pki):
    wrong = "not-the-Smtp-Pass-41"
    with smtps_sink(pki) as sink, \
            stack_with(tmp_path_factory, mail_config(f"smtps://127.0.0.1:{sink.port}", pki, secret=wrong)) as stack:
        email = sign_up(stack)
        mail = failed_delivery(stack, email)
        assert "the server refused the login (mail.smtp_username / smtp_password)" in mail["lastError"], mail
        assert mail["sentAt"] is None and not sink.messages
        listing = subprocess.run([BIN, "mail", "list", "--config", str(stack.config_path)], capture_output=True, text=True,
                                 timeout=60)
        listed = listing.stdout
        assert listing.returncode == 0 and f"to {email}: queued" in listed and "refused the login" in listed, listing
        assert wrong not in listed + mail["lastError"] + stack.app_log_text()
        assert_secret_kept(stack, listed)


@pytest.mark.parametrize("case", ["untrusted", "wrong_host"])
def test_a_refused_certificate_keeps_the_mail_queued_with_the_reason(tmp_path_factory, pki, case):
    # untrusted: the system's CA store (no mail.smtp_ca_file) does not know the private CA;
    # wrong_host: the CA is trusted but the certificate is for mail.elsewhere.test, not 127.0.0.1.
    sink = smtps_sink(pki, "server" if case == "untrusted" else "elsewhere")
    with sink, stack_with(tmp_path_factory, mail_config(f"smtps://127.0.0.1:{sink.port}",
                                                                 None if case == "untrusted" else pki)) as stack:
        email = sign_up(stack)
        error = failed_delivery(stack, email)["lastError"]
        assert "the server's TLS certificate was refused" in error and "mail.smtp_ca_file" in error, error
        detail = ("unable to get local issuer certificate" if case == "untrusted"
                  else "no alternative certificate subject name matches target host name '127.0.0.1'")
        assert detail in error, error
        assert not sink.messages and not sink.sessions, "nothing was sent to a server that was not trusted"
        assert_secret_kept(stack, error)


def test_a_server_without_starttls_is_refused_when_it_is_required(tmp_path_factory, smtp):
    # The plain sink on 127.0.0.1 offers no STARTTLS; mail.smtp_starttls asks for it: nothing goes out in clear.
    config = mail_config(f"smtp://127.0.0.1:{smtp.port}", **{"mail.smtp_starttls": "true"})
    with stack_with(tmp_path_factory, config) as stack:
        email = sign_up(stack)
        error = failed_delivery(stack, email)["lastError"]
        assert "the server does not offer STARTTLS (mail.smtp_starttls is on)" in error, error
        assert not [m for m in smtp.messages if email in m["to"]]


def test_config_refuses_an_unreadable_ca_file_and_a_password_in_the_url(tmp_path):
    config = tmp_path / "frontdoor.yml"
    for values, expected in (
            ({"smtp_url": "smtps://127.0.0.1:465", "smtp_ca_file": str(tmp_path / "missing.pem")},
             f"mail.smtp_ca_file {tmp_path / 'missing.pem'} cannot be read"),
            ({"smtp_url": f"smtps://{USER}:{SECRET}@127.0.0.1:465"}, "mail.smtp_url must not hold a password")):
        config.write_text('mail:\n  transport: "smtp"\n' + "".join(f'  {k}: "{v}"\n' for k, v in values.items()))
        checked = subprocess.run([BIN, "config", "check", "--config", str(config)], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 1 and expected in checked.stderr, checked.stderr
        assert SECRET not in checked.stdout + checked.stderr


def test_the_smtp_password_can_come_from_a_file_and_a_loose_or_missing_one_is_refused(tmp_path_factory, tmp_path, pki):
    # mail.smtp_password_file, as database.password_file: the first line is the password, so it need not sit in the
    # config file or the environment; a file others may read, or none, stops the command with one line naming it.
    secret_file = tmp_path / "smtp-password"
    secret_file.write_text(SECRET + "\n")
    secret_file.chmod(0o600)
    config = mail_config("smtps://127.0.0.1:1", pki, **{"mail.smtp_password_file": str(secret_file)})
    del config["mail.smtp_password"]
    with smtps_sink(pki) as sink:
        config["mail.smtp_url"] = f"smtps://127.0.0.1:{sink.port}"
        with stack_with(tmp_path_factory, config) as stack:
            email = sign_up(stack)
            sink.wait_for_mail(email, "/account/confirm?token=")
            assert sink.sessions[-1]["authenticated"] and sink.sessions[-1]["login"] == USER.encode()
            assert_secret_kept(stack)
    env = {"FRONTDOOR_TEMPLATES_PATH": str(ROOT / "templates"), "FRONTDOOR_DATABASE_PATH": str(tmp_path / "f.sqlite"),
           "FRONTDOOR_SOCIAL_TOKEN_KEY_FILE": str(tmp_path / "social.key"), "FRONTDOOR_MAIL_TRANSPORT": "smtp",
           "FRONTDOOR_MAIL_SMTP_URL": "smtps://127.0.0.1:465", "FRONTDOOR_MAIL_SMTP_PASSWORD_FILE": str(secret_file)}

    def frontdoor(*args):
        return subprocess.run([BIN, *args], env={**os.environ, **env}, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert frontdoor("migrate").returncode == 0
    assert frontdoor("mail", "list").returncode == 0
    secret_file.chmod(0o644)
    loose = frontdoor("mail", "list")
    assert loose.returncode == 1 and loose.stderr == (f"frontdoor: mail.smtp_password_file {secret_file}: mode 644 lets others "
                                                      f"read it; make it 600 (chmod 600 {secret_file})\n"), loose.stderr
    secret_file.unlink()
    missing = frontdoor("mail", "list")
    assert missing.returncode == 1 and missing.stderr == f"frontdoor: cannot read mail.smtp_password_file {secret_file}\n", missing.stderr
    assert SECRET not in loose.stdout + loose.stderr + missing.stdout + missing.stderr
