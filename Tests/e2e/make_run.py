"""scripts/run-dev (what `make run` starts) for a test: on a free port, its data in the test's folder, stopped the way
Ctrl-C stops it in a terminal. The URL it prints is on localhost (passkeys need a name as their relying party)."""
import contextlib
import os
import signal
import subprocess
import threading

from ports import free_port
from stack import BIN, ROOT
from waits import wait_for


class MakeRun:
    """A running run-dev: `base` (…/account without the slash), `outbox`, `output` (its lines so far), `returncode`
    once stopped."""

    def __init__(self, tmp_path, port):
        self.port = port
        self.root = f"http://localhost:{port}"
        self.base = self.root + "/account"
        self.outbox = tmp_path / "var/outbox"
        self.output = []
        self.returncode = None
        self.seen_session_tokens = set()  # what http_client.Browser records of a stack


@contextlib.contextmanager
def make_run(tmp_path, port=None):
    """Starts run-dev and waits for its URL line; on leaving, Ctrl-C (SIGINT to its process group) and its exit status
    in `returncode` (killed after 60 s if it does not stop)."""
    run = MakeRun(tmp_path, port or free_port())
    env = {**os.environ, "FRONTDOOR_BIN": BIN, "RUN_DIR": str(tmp_path / "run"), "VAR_DIR": str(tmp_path / "var")}
    # SIGINT at its default, as in a terminal: pytest may itself have been started with SIGINT ignored, and a shell
    # started with a signal ignored cannot trap it, so run-dev's Ctrl-C trap would never stop its nginx.
    script = subprocess.Popen(["env", "--default-signal=INT", str(ROOT / "scripts/run-dev"), str(run.port)], env=env, cwd=ROOT,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    threading.Thread(target=lambda: run.output.extend(iter(script.stdout.readline, "")), daemon=True).start()
    try:
        wait_for(lambda: any(run.base + "/" in line for line in run.output) or script.poll() is not None, timeout=60,
                 what="run-dev's URL line")
        assert script.poll() is None, "".join(run.output)
        yield run
    finally:
        os.killpg(script.pid, signal.SIGINT)
        try:
            run.returncode = script.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait()
            run.returncode = "still running 60 s after Ctrl-C"
