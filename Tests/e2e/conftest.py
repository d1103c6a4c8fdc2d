"""End-to-end fixtures: a real nginx in front of a real frontdoor process, its database, an SMTP sink, the fake
servers; and the run's pytest hooks. Helpers live in modules named after their job (stack.py, mails.py, ports.py,
http_client.py, users.py, social.py, api_client.py, chromium_driver.py, fakeserver.py, waits.py); tests import them there.

The database is a SQLite file in the stack's folder, or with FRONTDOOR_E2E_BACKEND=postgresql a new database in one
private PostgreSQL cluster per pytest process (backends.py; `make e2e-postgres`). Tests read and change rows through
the Stack (query, records, count, connect) in SQLite's `?` style on both. A test about SQLite itself carries
@pytest.mark.sqlite_only("why"): deselected on PostgreSQL, with the reasons listed at the end of the run; a test that
needs PostgreSQL (several hosts on one database) carries @pytest.mark.postgresql_only("why"): deselected on SQLite.
A test module may add lines to summary.SUMMARY (figures to quote), printed once at the end of the run.

Every stack takes free loopback ports (ports.free_port: outside the kernel's ephemeral range, never 8080 or 5432) and its
own temp folder. Its frontdoor runs with netguard.c preloaded: no connection leaves loopback and no name lookup reaches a
DNS server, and a stack that tried either fails its tests (issue 22).
"""
import pytest

import backends
from bid_browser import make_driver
from chromium_driver import make_chromium
from fakeserver import reset_around, serving
from http_client import Browser
from mails import MailSink
from relying_party import RelyingParty
from social import native_stack, social_stack
from stack import STACKS, new_stack
from summary import SUMMARY


SQLITE_ONLY = []  # (test id, reason) of the tests deselected on PostgreSQL
POSTGRESQL_ONLY = []  # (test id, reason) of the tests deselected on SQLite


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only(reason): a test about SQLite itself (its file, size cap, backup, "
                                       "migration of an old file); deselected when FRONTDOOR_E2E_BACKEND=postgresql")
    config.addinivalue_line("markers", "postgresql_only(reason): a test that needs PostgreSQL (several hosts on one "
                                       "database); deselected unless FRONTDOOR_E2E_BACKEND=postgresql")
    config.addinivalue_line("markers", "driver_options(**options): bid_browser.make_driver's options for the `driver` "
                                       "fixture (block_popups, block_third_party); none: both allowed")


def pytest_report_header(config):
    return f"frontdoor e2e backend: {backends.BACKEND} (FRONTDOOR_E2E_BACKEND)"


def pytest_collection_modifyitems(config, items):
    """On PostgreSQL, deselects the sqlite_only tests, on SQLite the postgresql_only ones (each must say why), and keeps
    their reasons for the summary."""
    kept, dropped = [], []
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        only_pg = item.get_closest_marker("postgresql_only")
        for name, mark in (("sqlite_only", marker), ("postgresql_only", only_pg)):
            if mark and not (mark.args and mark.args[0]):
                raise pytest.UsageError(f"{item.nodeid}: {name} needs a reason")
        if marker and backends.POSTGRESQL:
            dropped.append(item)
            SQLITE_ONLY.append((item.nodeid, marker.args[0]))
        elif only_pg and not backends.POSTGRESQL:
            dropped.append(item)
            POSTGRESQL_ONLY.append((item.nodeid, only_pg.args[0]))
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_terminal_summary(terminalreporter):
    if SQLITE_ONLY:
        terminalreporter.section(f"{len(SQLITE_ONLY)} SQLite-only tests deselected on PostgreSQL (the SQLite run covers them)")
        for nodeid, reason in SQLITE_ONLY:
            terminalreporter.write_line(f"{nodeid}: {reason}")
    if POSTGRESQL_ONLY:
        reasons = sorted({reason for _, reason in POSTGRESQL_ONLY})
        terminalreporter.section(f"{len(POSTGRESQL_ONLY)} PostgreSQL-only tests deselected on SQLite (make e2e-postgres runs them)")
        for reason in reasons:
            names = sorted({nodeid.split("::")[0] for nodeid, why in POSTGRESQL_ONLY if why == reason})
            terminalreporter.write_line(f"{', '.join(names)}: {reason}")
    if SUMMARY:
        terminalreporter.section("figures")
        for line in SUMMARY:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session):
    backends.stop_cluster()   # the PostgreSQL run's private cluster, when one was started


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, attach the tails of frontdoor's log and nginx's error log to the test's report."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for stack in STACKS:
            report.sections.append((f"stack {stack.folder.name} logs", stack.logs()))


@pytest.fixture(scope="session")
def smtp():
    yield from serving(MailSink())


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    """Confirmation off, mail to an outbox folder: the foundation's flows."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"})


@pytest.fixture(scope="module")
def mail_stack(tmp_path_factory, request, smtp):
    """Confirmation on, mail through SMTP to the sink."""
    yield from new_stack(tmp_path_factory, request, smtp.settings())


@pytest.fixture(scope="session")
def test_idp():
    from idp_server import IdentityProvider   # imported when used: it makes RSA keys
    yield from serving(IdentityProvider())


@pytest.fixture(scope="module")
def bid_stack(tmp_path_factory, request, test_idp):
    """Confirmation on, mail to an outbox folder, and the test identity provider reachable over http (allowed by
    name: it is on loopback); PyBrowserID's keys are DS128, so the stack accepts DS128 and RS128."""
    yield from new_stack(tmp_path_factory, request, {"mail.transport": "outbox", "browserid.http_hosts": test_idp.http_hosts,
                                                     "browserid.fetch_allowed_hosts": test_idp.allowed_hosts,
                                                     "browserid.legacy_algorithms": "DS128, RS128"})


@pytest.fixture
def rp(bid_stack):
    """A relying party (relying_party.py) on another site, http://localhost:<port>, using bid_stack's Frontdoor."""
    yield from serving(RelyingParty(bid_stack.base))


@pytest.fixture
def driver(request):
    """Chromium for the BrowserID browser tests (bid_browser.make_driver) with the options of the test's
    driver_options marker (a module sets it for all its tests with pytestmark)."""
    marker = request.node.get_closest_marker("driver_options")
    chromium = make_driver(**(marker.kwargs if marker else {}))
    yield chromium
    chromium.quit()


@pytest.fixture
def browser(stack):
    return Browser(stack)


@pytest.fixture(scope="session")
def oauth_server():
    """The tests' OIDC/OAuth provider, running for the whole session on a free loopback port."""
    from oauth_provider import OAuthProvider
    yield from serving(OAuthProvider())


@pytest.fixture
def oauth_provider(oauth_server):
    """The provider, reset for this test (default user, good behaviour, consent page, no codes or tokens)."""
    yield from reset_around(oauth_server)


@pytest.fixture(scope="module")
def social(tmp_path_factory, oauth_server):
    """Confirmation off, outbox mail, providers "corp" (OIDC, "Corp SSO") and "github" on the test provider."""
    yield from social_stack(tmp_path_factory, oauth_server)


@pytest.fixture
def chromium():
    driver = make_chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def api_stack(tmp_path_factory, request):
    """Confirmation off, outbox mail without a throttle, three failed sign-ins lock an account for an hour."""
    yield from new_stack(tmp_path_factory, request, {
        "confirmation.required": "false", "mail.transport": "outbox", "mail.throttle": "0s",
        "lockout.max_failures": "3", "lockout.duration": "1h", "lockout.address_max_failures": "1000"})


@pytest.fixture(scope="module")
def closed_mail_stack(tmp_path_factory, request, smtp):
    """As mail_stack, with sign-up closed."""
    yield from new_stack(tmp_path_factory, request, {"signup": "closed", **smtp.settings()})


@pytest.fixture(scope="session")
def native_server():
    """The Google / Facebook token-check stand-in (native_provider.py) for the whole session."""
    from native_provider import NativeProvider
    yield from serving(NativeProvider())


@pytest.fixture
def native(native_server):
    """The token-check stand-in with no tokens and an empty request log for this test."""
    yield from reset_around(native_server)


@pytest.fixture(scope="module")
def provider_stack(tmp_path_factory, native_server):
    """Confirmation off, outbox mail, providers "google" and "facebook" checking tokens with the stand-in."""
    yield from native_stack(tmp_path_factory, native_server)


@pytest.fixture(scope="module")
def closed_provider_stack(tmp_path_factory, native_server):
    """As provider_stack, with sign-up closed."""
    yield from native_stack(tmp_path_factory, native_server, {"signup": "closed"})
