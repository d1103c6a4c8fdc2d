"""Mail as the tests read it: parsing (read_mail, mail_text), the SMTP sink (MailSink) and a stack's outbox folder
(outbox_link)."""
import email
import email.policy
import re
import threading

from aiosmtpd.controller import Controller

from fakeserver import Served
from ports import free_port
from waits import wait_for


def read_mail(raw):
    """A mail as written (bytes or str) parsed by the standard library: policy.default decodes the encoded words of its
    headers, and get_content() the quoted-printable of its parts."""
    return email.message_from_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8"), policy=email.policy.default)


def mail_text(message):
    """The decoded bodies of every text part of `message` (plain, then HTML): what a test searches for a link or a
    sentence (the raw text is quoted-printable: a link's "=" is "=3D" there and long lines are cut)."""
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def mail_fields_and_text(message):
    """The decoded header fields of `message` ("Subject: …" lines), then its decoded bodies."""
    return "".join(f"{name}: {value}\n" for name, value in message.items()) + mail_text(message)


class MailSink(Served):
    """A real SMTP server (aiosmtpd) on a free loopback port that keeps what it receives: each message as "data" (the
    text as received), "message" (parsed, see read_mail) and "text" (its decoded fields and bodies, see
    mail_fields_and_text). `controller`: more options of aiosmtpd's Controller (TLS, AUTH). stop() and start() again
    keep the port (closed meanwhile)."""

    def __init__(self, **controller):
        self.options = controller
        self.port = free_port()
        self.messages = []
        self.lock = threading.Condition()
        self.controller = None

    async def handle_DATA(self, server, session, envelope):
        message = read_mail(envelope.original_content)
        with self.lock:
            self.messages.append({"to": envelope.rcpt_tos, "from": envelope.mail_from,
                                  "data": envelope.original_content.decode("utf-8", "replace"),
                                  "message": message, "text": mail_fields_and_text(message)})
            self.lock.notify_all()
        return "250 OK"

    def start(self):
        # ready_timeout: how long start() waits for the server to answer (aiosmtpd's default, 5 s, is short for a
        # loaded machine); a bound, not a measure.
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, ready_timeout=60, **self.options)
        self.controller.start()
        return self

    def stop(self):
        if self.controller:
            self.controller.stop()
            self.controller = None

    def settings(self, sender="Frontdoor <no-reply@frontdoor.test>"):
        """A stack's dotted settings for sending through this sink: SMTP to its port, from `sender` (None: no
        mail.from, frontdoor's own)."""
        return {"mail.transport": "smtp", "mail.smtp_url": f"smtp://127.0.0.1:{self.port}",
                **({"mail.from": sender} if sender else {})}

    def wait_for_mail(self, to, containing="", timeout=60.0):
        """The newest message to `to` whose decoded fields or bodies contain `containing`, waiting (on the sink's condition,
        notified by each delivery) until one arrives; fails the test after `timeout` seconds."""
        def found():  # called with self.lock held
            for m in reversed(self.messages):
                if any(r.lower() == to.lower() for r in m["to"]) and containing in m["text"]:
                    return m
            return None
        with self.lock:
            mail = self.lock.wait_for(found, timeout)
        if not mail:
            raise AssertionError(f"timed out waiting for mail to {to} containing {containing!r}")
        return mail

    def link(self, to, marker):
        mail = self.wait_for_mail(to, marker)
        return re.search(r"https?://[^\s<>\"]+" + re.escape(marker) + r"[^\s<>\"]*", mail["text"]).group(0)


def outbox_newest_first(stack):
    """The outbox's .eml files, the most recently queued first. The outbox writes each message (atomically) as
    <messageId>.eml, so the order is that of the queue's ids in the stack's database, not of the files' mtimes (two
    mails written within one tick of the kernel's coarse file clock share an mtime). A stand-in stack without a
    `store` (one mail per address) gets them by mtime, then name."""
    if not stack.outbox.exists():
        return []
    queued = {}
    store = getattr(stack, "store", None)
    if store is not None and (store.kind != "sqlite" or store.path.exists()):
        queued = dict(store.query("SELECT messageId, id FROM mailQueue"))

    def order(path):
        return (queued.get(path.stem, -1), 0 if queued else path.stat().st_mtime_ns, path.name)
    return sorted(stack.outbox.glob("*.eml"), key=order, reverse=True)


def outbox_link(stack, to, marker):
    """The link containing `marker` in the newest outbox mail to `to` (waiting for the sender to write it)."""
    def find():
        for path in outbox_newest_first(stack):
            raw = path.read_bytes()
            text = mail_text(read_mail(raw))
            if to in raw.decode("utf-8", "replace") or to in text:
                match = re.search(r"http://[^\s<>\"]+" + re.escape(marker) + r"[^\s<>\"]*", text)
                if match:
                    return match.group(0).replace("&amp;", "&")
        return None
    return wait_for(find, what=f"mail to {to} with {marker}")
