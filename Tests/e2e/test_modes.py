"""The same binary as plain CGI, under spawn-fcgi (listening socket on fd 0), and stopping on SIGTERM.

Here plain CGI gets hand-set variables; test_cgi_server.py runs it under a real web server (lighttpd's mod_cgi)."""
import signal
import socket
import subprocess

import requests

from http_client import REQUEST_TIMEOUT
from make_run import make_run
from ports import free_port
from stack import BIN, ROOT
from waits import wait_for


def stop(process, signal_number=signal.SIGTERM):
    """Sends `signal_number` to `process` if it still runs and waits until it is gone (SIGKILL after 60 s)."""
    if process.poll() is None:
        process.send_signal(signal_number)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cgi(stack, method, uri, body=b"", **env):
    environment = {"PATH": "/usr/bin:/bin", "REQUEST_METHOD": method, "REQUEST_URI": uri, "SERVER_NAME": "localhost",
                   "REMOTE_ADDR": "127.0.0.1", "FRONTDOOR_CONFIG": str(stack.config_path), **env}
    if body:
        environment.update(CONTENT_LENGTH=str(len(body)), CONTENT_TYPE="application/x-www-form-urlencoded")
    return subprocess.run([BIN], input=body, env=environment, capture_output=True, timeout=30)


def test_the_binary_answers_one_request_as_cgi(stack):
    page = cgi(stack, "GET", "/account/sign_in")
    assert page.returncode == 0, page.stderr
    head, _, body = page.stdout.partition(b"\r\n\r\n")
    assert head.startswith(b"Status: 200 OK")
    assert b"Content-Security-Policy:" in head
    assert b'action="/account/sign_in"' in body and b'name="csrf_token"' in body

    refused = cgi(stack, "POST", "/account/sign_in", b"email=a%40b.c&password=whatever")
    assert refused.stdout.startswith(b"Status: 403 Forbidden")

    too_large = cgi(stack, "POST", "/account/sign_in", b"a" * 70_000)
    assert too_large.stdout.startswith(b"Status: 413")


def test_run_by_hand_without_a_socket_it_explains_itself(stack):
    result = subprocess.run([BIN, "serve", "--config", str(stack.config_path)], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "no socket to serve on" in result.stderr


def test_spawn_fcgi_passes_the_listening_socket_on_fd_0(stack, tmp_path):
    sock = tmp_path / "spawn.sock"
    # frontdoor's log goes to a file: a pipe nobody reads would block it once full.
    with open(tmp_path / "spawned.log", "w") as log:
        spawned = subprocess.Popen(["spawn-fcgi", "-n", "-s", str(sock), "-M", "0666", "--", BIN, "serve",
                                    "--config", str(stack.config_path)], stdout=subprocess.DEVNULL, stderr=log)
    port = free_port()
    prefix = tmp_path / "nginx"
    nginx = None
    try:
        subprocess.run([str(ROOT / "nginx/render"), "--static", str(ROOT / "static"), "--socket", str(sock),
                        "--server", str(prefix), str(port)], check=True)
        nginx = subprocess.Popen(["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def answered():
            try:
                return requests.get(f"http://127.0.0.1:{port}/account/sign_in", timeout=REQUEST_TIMEOUT)
            except requests.RequestException:
                return None
        page = wait_for(lambda: (r := answered()) is not None and r.status_code == 200 and r, what="spawn-fcgi frontdoor")
        assert 'name="csrf_token"' in page.text
    finally:
        if nginx:
            stop(nginx)
        stop(spawned)


def test_sigterm_stops_the_server(stack, tmp_path):
    sock = tmp_path / "term.sock"
    process = subprocess.Popen([BIN, "serve", "--config", str(stack.config_path), "--socket", str(sock), "--workers", "3"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: sock.exists() or process.poll() is not None, what="the socket")
        assert process.poll() is None
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == -signal.SIGTERM
    finally:
        stop(process, signal.SIGKILL)


def test_config_check_prints_the_effective_config_and_refuses_bad_values(stack, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "FRONTDOOR_SESSION_IDLE_TIMEOUT": "30m", "FRONTDOOR_FASTCGI_WORKERS": "3"}
    result = subprocess.run([BIN, "config", "check", "--config", str(stack.config_path)], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert 'idle_timeout: "30m"' in result.stdout and "workers: 3" in result.stdout
    assert f'path: "{stack.db}"' in result.stdout
    # Its output is itself a config file that reads back the same.
    (tmp_path / "effective.yml").write_text(result.stdout)
    again = subprocess.run([BIN, "config", "check", "--config", str(tmp_path / "effective.yml")], env={"PATH": "/usr/bin:/bin"},
                           capture_output=True, text=True, timeout=30)
    assert again.returncode == 0 and again.stdout == result.stdout, again.stderr
    for bad in ({"FRONTDOOR_FASTCGI_WORKERS": "many"}, {"FRONTDOOR_SESSION_LIFETIME": "12x"},
                {"FRONTDOOR_FASTCGI_SOCKET_MODE": "0999"}):
        refused = subprocess.run([BIN, "config", "check", "--config", str(stack.config_path)], env={**env, **bad},
                                 capture_output=True, text=True, timeout=30)
        assert refused.returncode == 1 and refused.stderr.strip(), bad


def test_make_run_script_serves_then_stops_both_on_ctrl_c(tmp_path):
    """scripts/run-dev (what `make run` starts) on a free port with its data in tmp: URL, a curl session, Ctrl-C."""
    # The dev config asks for confirmed addresses: curl-session.sh follows the link from the .eml in var/outbox.
    with make_run(tmp_path) as dev:
        session = subprocess.run([str(ROOT / "scripts/curl-session.sh"), dev.base, str(dev.outbox)],
                                 capture_output=True, text=True, timeout=300)
        assert session.returncode == 0, session.stdout + session.stderr + "".join(dev.output)
        assert (tmp_path / "var/frontdoor.sqlite").exists() and not (tmp_path / "run/nginx/error.log").read_text().count("[emerg]")
    assert dev.returncode == 0, f"run-dev: {dev.returncode}\n" + "".join(dev.output)
    # run-dev prints "stopped" before it exits; its output may not all be read yet.
    wait_for(lambda: "stopped" in "".join(dev.output), what="run-dev's output")
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", dev.port)) != 0, "nginx still listening after Ctrl-C"
    with socket.socket(socket.AF_UNIX) as probe:
        assert probe.connect_ex(str(tmp_path / "var/frontdoor.sock")) != 0, "frontdoor still serving after Ctrl-C"
