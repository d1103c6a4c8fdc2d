"""The one way to write a fake server for the e2e tests: a Flask app served by werkzeug's threaded WSGI server from a
daemon thread, on a free loopback port (ports.free_port), plain http or TLS.

FakeServer's options: `name` (the Flask app's name), `host` (the address bound, and named in `base`), `ssl_context`
(an ssl.SSLContext: the server speaks https and `base` says so). A subclass adds its routes to `self.app` before
start(). The socket is bound and listening once the object exists, so start() needs no wait for readiness: a
connection made before the serving thread runs waits in the listen backlog. stop() closes the port (an unreachable
server), and stopping twice, or a server never started, is fine. Every fake server (and the SMTP sinks, mails.py)
is a Served: start() returns the server, and `with` starts and stops it.
"""
import logging
import threading

from flask import Flask, jsonify
from werkzeug.serving import make_server

from ports import free_port

logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request in the test output


def serving(server):
    """Generator for a fixture that runs `server` (a Served) for the fixture's scope (the fixture does `yield from`
    it): started before, stopped after."""
    with server:
        yield server


def reset_around(server):
    """Generator for a per-test fixture over a session's fake server (a fixture does `yield from` it): the server's
    reset() before the test and after it."""
    server.reset()
    yield server
    server.reset()


class Served:
    """A server with start() (returning itself) and stop(); `with server:` runs it for the block."""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class FakeServer(Served):
    """`self.app` (Flask) answers on `self.base` once started; see the module's comment for the options."""

    def __init__(self, name, host="127.0.0.1", ssl_context=None):
        self.app = Flask(name)
        self.server_ = make_server(host, free_port(), self.app, threaded=True, ssl_context=ssl_context)
        self.port = self.server_.server_port
        self.base = f"{'https' if ssl_context else 'http'}://{host}:{self.port}"
        self.thread = threading.Thread(target=self.server_.serve_forever, daemon=True)
        self.stopped = False

    def control_routes(self, answered):
        """The control routes every stateful fake server has: POST /_control/reset (the server's reset()) and
        GET /_control/requests (`answered()`: the requests it noted, oldest first, each as a JSON list)."""
        @self.app.post("/_control/reset")
        def control_reset():
            self.reset()
            return jsonify(ok=True)

        @self.app.get("/_control/requests")
        def control_requests():
            return jsonify([list(call) for call in answered()])

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        if self.thread.is_alive():  # shutdown() waits for serve_forever, which a server never started does not run
            self.server_.shutdown()
        self.server_.server_close()
