"""The same binary as plain CGI, under spawn-fcgi (listening socket on fd 0), and stopping on SIGTERM."""
import signal
import subprocess

import requests

from conftest import BIN, ROOT, free_port, wait_for


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
    spawned = subprocess.Popen(["spawn-fcgi", "-n", "-s", str(sock), "-M", "0666", "--", BIN, "serve",
                                "--config", str(stack.config_path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port = free_port()
    prefix = tmp_path / "nginx"
    subprocess.run([str(ROOT / "nginx/render"), "--static", str(ROOT / "static"), "--socket", str(sock),
                    "--server", str(prefix), str(port)], check=True)
    nginx = subprocess.Popen(["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def answered():
            try:
                return requests.get(f"http://127.0.0.1:{port}/account/sign_in", timeout=2)
            except requests.RequestException:
                return None
        page = wait_for(lambda: (r := answered()) is not None and r.status_code == 200 and r, what="spawn-fcgi frontdoor")
        assert 'name="csrf_token"' in page.text
    finally:
        nginx.terminate()
        spawned.terminate()
        nginx.wait(10)
        spawned.wait(10)


def test_sigterm_stops_the_server(stack, tmp_path):
    sock = tmp_path / "term.sock"
    process = subprocess.Popen([BIN, "serve", "--config", str(stack.config_path), "--socket", str(sock), "--workers", "3"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(sock.exists, what="the socket")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=10) == -signal.SIGTERM
