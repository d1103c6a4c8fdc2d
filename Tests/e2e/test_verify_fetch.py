"""Issue 22: /verify must not be a request forger or a port scanner. A stack with the default fetch rules (any public
host) gets PyBrowserID assertions whose issuers are loopback in every spelling, a name that resolves to loopback, a
name that resolves to loopback only on its second lookup, and a name that does not resolve. Frontdoor runs with
netguard.c: the names it can look up are scripted, and a connection outside loopback is blocked before anything is
sent and reported. Listeners on loopback count what reaches them: nothing may."""
import socket
import threading
import time

import pytest
import requests
from browserid.tests.support import make_assertion

from ports import free_port
from stack import Stack, running

AUD = "https://rp.example.com"
TIMEOUT = 30  # seconds: only a bound for a request that never ends
NAMES = ("rebind.test 93.184.216.34 127.0.0.1\nloop.test 127.0.0.1\n"   # a public address first, loopback after
         "stall.test stall\n")                                            # a lookup that never answers in time (netguard.c)
DEADLINE = 5.0   # browserid.verify_deadline's default
MARGIN = 3.0     # seconds on top of it for a loaded 2-core machine


class CountingListener:
    """A TCP listener on a loopback address that accepts and counts connections, answering none."""

    def __init__(self, family, address, port):
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.bind((address, port))
        self.socket.listen(8)
        self.accepted = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.accepted += 1
            connection.close()

    def close(self):
        self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self.thread.join(TIMEOUT)


@pytest.fixture(scope="module")
def fetching_stack(tmp_path_factory):
    """The default fetch rules (fetch_only_allowed_hosts off), DS128 accepted (PyBrowserID's keys)."""
    stack = Stack(tmp_path_factory.mktemp("stack"), {"mail.transport": "outbox", "browserid.fetch_only_allowed_hosts": "false",
                                                     "browserid.legacy_algorithms": "DS128"}, names=NAMES)
    yield from running(stack)


@pytest.fixture()
def listeners():
    port = free_port()
    both = [CountingListener(socket.AF_INET, "127.0.0.1", port), CountingListener(socket.AF_INET6, "::1", port)]
    yield port, both
    for listener in both:
        listener.close()


def verify(stack, issuer):
    assertion = make_assertion(f"ann@{issuer}", AUD, issuer=issuer)
    answer = requests.post(stack.base + "/verify", data={"assertion": assertion, "audience": AUD}, timeout=TIMEOUT * 3)
    assert answer.status_code == 200
    return answer.json()


def test_loopback_issuers_in_every_spelling_are_never_fetched_from(fetching_stack, listeners):
    port, both = listeners
    fetching_stack.network_events()
    issuers = ["127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]", "127.1", "2130706433", "loop.test",
               f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"[::ffff:127.0.0.1]:{port}", f"loop.test:{port}"]
    for issuer in issuers:
        body = verify(fetching_stack, issuer)
        assert body == {"status": "failure", "reason": f"can't get public key for {issuer}: the support document could not be fetched"}
    assert [listener.accepted for listener in both] == [0, 0]
    events = fetching_stack.network_events()
    assert not [event for event in events if not event.startswith("lookup ")], events   # no connection at all
    log = fetching_stack.app_log_text()
    assert "support document for 127.0.0.1 not fetched: 127.0.0.1 has the non-public address 127.0.0.1" in log
    assert "support document for [::ffff:127.0.0.1] not fetched: [::ffff:127.0.0.1] has the non-public address 127.0.0.1" in log
    assert "support document for loop.test not fetched: loop.test has the non-public address 127.0.0.1" in log
    assert f"support document for localhost:{port} not fetched: port {port} is fetched from only for hosts in" in log


def test_a_second_dns_answer_is_never_used_and_a_failure_is_remembered(fetching_stack, listeners):
    _, both = listeners
    fetching_stack.network_events()
    for _ in range(2):
        body = verify(fetching_stack, "rebind.test")
        assert body["reason"] == "can't get public key for rebind.test: the support document could not be fetched"
    # One lookup (public: 93.184.216.34), one connection to the address checked, which netguard blocks before a byte
    # is sent; the loopback answer a second lookup would give is never asked for, and the second verify is answered
    # from the failure cache.
    assert fetching_stack.network_events() == ["lookup rebind.test", "blocked 93.184.216.34 443"]
    assert [listener.accepted for listener in both] == [0, 0]


def test_an_unresolvable_name_has_the_same_reason(fetching_stack):
    fetching_stack.network_events()
    body = verify(fetching_stack, "nowhere.test")
    assert body["reason"] == "can't get public key for nowhere.test: the support document could not be fetched"
    assert fetching_stack.network_events() == ["lookup nowhere.test"]
    assert "support document for nowhere.test not fetched: nowhere.test does not resolve" in fetching_stack.app_log_text()


def test_a_lookup_that_never_answers_ends_at_the_verification_deadline(fetching_stack):
    # getaddrinfo has no deadline of its own: the stalled lookup (60 s in netguard) is given up at /verify's deadline.
    fetching_stack.network_events()
    began = time.monotonic()
    body = verify(fetching_stack, "stall.test")
    took = time.monotonic() - began
    assert body["reason"] == "can't get public key for stall.test: the support document could not be fetched"
    assert took < DEADLINE + MARGIN, f"/verify took {took:.1f}s"
    assert fetching_stack.network_events() == ["lookup stall.test"]
    assert "support document for stall.test not fetched: no answer from the name lookup within" in fetching_stack.app_log_text()
