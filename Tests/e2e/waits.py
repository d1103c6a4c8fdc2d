"""Waiting for a condition without fixed sleeps: poll until it holds, fail the test after a generous bound."""
import time


def wait_for(condition, timeout=60.0, what="condition"):
    """Polls `condition` until it returns something truthy; fails the test after `timeout` seconds (a bound for a
    hang, generous for a loaded 2-core machine, never what a test measures)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
