"""A client at another loopback address (127.0.0.N): every 127/8 address is this host's on Linux, so nginx sees a
different REMOTE_ADDR without any proxy header, as it would see another machine."""
import requests
from requests.adapters import HTTPAdapter

from http_client import Browser


class SourceAddressAdapter(HTTPAdapter):
    """Connections bound to `address` before they connect."""

    def __init__(self, address):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(address):
    session = requests.Session()
    for scheme in ("http://", "https://"):
        session.mount(scheme, SourceAddressAdapter(address))
    return session


def browser_from(stack, address):
    """A Browser (CSRF tokens, cookies) whose requests come from `address`."""
    browser = Browser(stack)
    browser.session = session_from(address)
    return browser
