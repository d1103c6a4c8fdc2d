"""A Flask app served on a free loopback port from a daemon thread: the base of the tests' emulated providers."""
import threading

from flask import Flask
from werkzeug.serving import make_server


class FlaskServer:
    """`self.app` (Flask) answers on http://<host>:<port> once `start()`ed; `stop()` closes the port (an unreachable
    provider), and stopping twice is fine. Subclasses add their routes to `self.app` before starting."""

    def __init__(self, name, host="127.0.0.1"):
        self.app = Flask(name)
        self.server_ = make_server(host, 0, self.app, threaded=True)
        self.port = self.server_.server_port
        self.base = f"http://{host}:{self.port}"
        self.thread = threading.Thread(target=self.server_.serve_forever, daemon=True)
        self.stopped = False

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        self.server_.shutdown()
        self.server_.server_close()
