"""New test users: unique addresses, and confirmed, signed-in accounts."""
import threading
import time

from http_client import Browser
from mails import outbox_link

_last_email_ns = 0
_email_lock = threading.Lock()


def unique_email(prefix="user"):
    """A new address each call: the wall clock in ns, made strictly increasing in this process, so two threads in the
    same tick (or a clock stepped back) never get the same one."""
    global _last_email_ns
    with _email_lock:
        _last_email_ns = max(time.time_ns(), _last_email_ns + 1)
        return f"{prefix}-{_last_email_ns}@example.com"


def confirmed_user(stack, password="correct horse battery"):
    """A Browser signed in as a new, confirmed account; returns (browser, email)."""
    email = unique_email("bid")
    browser = Browser(stack)
    browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password})
    assert browser.get(outbox_link(stack, email, "/confirm?token=")).status_code == 302
    assert browser.post("/sign_in", {"email": email, "password": password}).status_code == 303
    return browser, email
