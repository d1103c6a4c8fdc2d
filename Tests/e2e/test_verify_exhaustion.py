"""One unauthenticated /verify must not hold a FastCGI worker for long, and a crowd of them must not stop the gate.

A fake identity provider answers every support document slowly (DELAY) with another `authority`: each of the 64
chains delegates the email domain d<i>-0.test → d<i>-1.test → … → d<i>-5.test → q<i>-0.test (the certificate's
issuer), then q<i>-0.test → q<i>-1.test → … without end, the longest chain the verifier used to follow (6 + 7 fetches).
Every name is its own (an attacker's fresh subdomains, which no failure cache has seen), fetched over http from the
fake's loopback port (browserid.http_hosts, as every e2e identity provider). PyBrowserID signs the assertions with
DS128 keys the stack accepts, so they pass the cheap checks and reach the fetches. The stack runs the production
worker count (fastcgi.workers' default).

64 such /verify are sent at once while the gate (auth/check, anonymous: 401) is asked again and again: each gate answer
must come within GATE_BOUND, each /verify within the verification deadline (browserid.verify_deadline, default 5 s)
plus MARGIN, and the fake must never see more support-document requests at once than browserid.fetch_concurrency
(default 8): the others are told "busy" at once.
"""
import threading
import time

import pytest
import requests
from browserid.tests.support import make_assertion
from flask import jsonify, request

from fakeserver import FakeServer, serving
from stack import Stack, running

AUD = "https://rp.example.com"
CHAINS = 64
EMAIL_HOPS = 6      # d<i>-0 … d<i>-5: the email domain's delegations the verifier used to follow
ISSUER_HOPS = 7     # q<i>-0 … q<i>-6: the issuer's
DELAY = 2.0         # seconds the fake takes for each document (the attack's ~4.9 s, shortened for the suite)
DEADLINE = 5.0      # browserid.verify_deadline's default
CONCURRENCY = 8     # browserid.fetch_concurrency's default
MARGIN = 3.0        # seconds on top of the deadline for a loaded 2-core machine
GATE_BOUND = 3.0    # seconds: a gate answer slower than this means the workers are gone (it answers in milliseconds)
TIMEOUT = 120       # seconds: only a bound for a request that never ends


def chain_names(i):
    return [f"d{i}-{k}.test" for k in range(EMAIL_HOPS)] + [f"q{i}-{k}.test" for k in range(ISSUER_HOPS)]


class EndlessIdentityProvider(FakeServer):
    """Answers /.well-known/browserid for any d<i>-<k>.test or q<i>-<k>.test after DELAY with the next name in its
    chain; counts how many requests it is answering at once (the most seen: `most_at_once`)."""

    def __init__(self):
        super().__init__("endless_idp")
        self.lock = threading.Lock()
        self.at_once = 0
        self.most_at_once = 0
        self.served = 0

        @self.app.get("/.well-known/browserid")
        def document():
            with self.lock:
                self.at_once += 1
                self.most_at_once = max(self.most_at_once, self.at_once)
            try:
                time.sleep(DELAY)   # the slow provider itself, not a wait of the test
                kind, rest = request.host.split(":")[0][0], request.host.split(":")[0][1:-len(".test")]
                chain, hop = (int(part) for part in rest.split("-"))
                follow = f"q{chain}-0.test" if kind == "d" and hop == EMAIL_HOPS - 1 else f"{kind}{chain}-{hop + 1}.test"
                return jsonify({"authority": follow})
            finally:
                with self.lock:
                    self.at_once -= 1
                    self.served += 1


@pytest.fixture(scope="module")
def endless_idp():
    yield from serving(EndlessIdentityProvider())


@pytest.fixture(scope="module")
def exhaustion_stack(tmp_path_factory, endless_idp):
    names = [name for i in range(CHAINS) for name in chain_names(i)]
    stack = Stack(tmp_path_factory.mktemp("stack"), {
        "mail.transport": "outbox",
        "browserid.http_hosts": ", ".join(f"{name}=127.0.0.1:{endless_idp.port}" for name in names),
        "browserid.fetch_allowed_hosts": ", ".join(names),
        "browserid.legacy_algorithms": "DS128",
    }, workers=None)
    yield from running(stack)


def test_chained_verifies_end_at_their_deadline_and_the_gate_stays_fast(exhaustion_stack, endless_idp):
    stack = exhaustion_stack
    assertions = [make_assertion(f"ann@d{i}-0.test", AUD, issuer=f"q{i}-0.test") for i in range(CHAINS)]
    start = threading.Barrier(CHAINS + 1)
    verdicts = [None] * CHAINS

    def attack(i):
        start.wait()
        began = time.monotonic()
        answer = requests.post(stack.base + "/verify", data={"assertion": assertions[i], "audience": AUD}, timeout=TIMEOUT)
        verdicts[i] = (time.monotonic() - began, answer.status_code, answer.json())

    attackers = [threading.Thread(target=attack, args=(i,)) for i in range(CHAINS)]
    for thread in attackers:
        thread.start()
    start.wait()
    attack_began = time.monotonic()
    gate = []
    finished = threading.Event()
    watcher = threading.Thread(target=lambda: ([thread.join(TIMEOUT) for thread in attackers], finished.set()))
    watcher.start()
    while not finished.is_set():
        began = time.monotonic()
        answer = requests.get(stack.base + "/auth/check", allow_redirects=False, timeout=TIMEOUT)
        gate.append((round(time.monotonic() - began, 2), answer.status_code))
        finished.wait(0.2)   # the pace of the gate's questions, until the last /verify has its answer
    watcher.join()
    attack_took = time.monotonic() - attack_began

    report = (f"attack took {attack_took:.1f}s; gate {gate}; slowest /verify {max(v[0] for v in verdicts):.1f}s; "
              f"fake at once {endless_idp.most_at_once}, served {endless_idp.served}")
    print(report)
    assert gate and all(status == 401 for _, status in gate), report
    assert max(took for took, _ in gate) < GATE_BOUND, report
    assert max(took for took, _, _ in verdicts) < DEADLINE + MARGIN, report
    assert endless_idp.most_at_once <= CONCURRENCY, report
    bodies = [body for _, _, body in verdicts]
    assert all(body["status"] == "failure" for body in bodies), report
    busy = [status for _, status, body in verdicts if body["reason"].startswith("busy")]
    assert busy and set(busy) == {503}, report   # the crowd past the bound is told at once, not queued
    refused = {body["reason"] for _, status, body in verdicts if status == 200}
    assert refused and refused <= {f"issuer 'q{i}-0.test' may not speak for emails from 'd{i}-0.test'" for i in range(CHAINS)}, report
