"""Free loopback ports for the servers a test starts (stacks, fake servers, SMTP sinks): outside the kernel's ephemeral
range, never 8080 or 5432, held for the rest of the pytest process (issue 22)."""
import errno
import fcntl
import os
import socket
import tempfile
import threading
from pathlib import Path

NEVER_PORTS = {8080, 5432}
PORT_LOCKS = Path(tempfile.gettempdir()) / f"frontdoor-e2e-ports-{os.getuid()}"
_ports_lock = threading.Lock()
_ports_handed_out = set()
_port_lock_files = []  # one open, flock'ed file per port handed out: the port stays this process's until it ends


def ephemeral_port_range():
    """The kernel's range for the local ports of outgoing connections (and of bind to port 0)."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
        return low, high
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def port_candidates():
    """Ports 20000-65535 outside the ephemeral range, without 8080 and 5432, starting at a place that depends on the
    process id (so two pytest processes at once mostly try different ports first)."""
    low, high = ephemeral_port_range()
    ports = [port for port in range(20000, 65536) if not low <= port <= high and port not in NEVER_PORTS]
    if not ports:
        raise RuntimeError(f"no loopback port outside the ephemeral range {low}-{high} "
                           "(/proc/sys/net/ipv4/ip_local_port_range) for the tests' servers")
    start = os.getpid() * 7919 % len(ports)
    return ports[start:] + ports[:start]


def bindable(port):
    """True when nothing is bound to 127.0.0.1:`port` nor to [::1]:`port` (where a browser's "localhost" may go first),
    nor left in TIME_WAIT there (no SO_REUSEADDR)."""
    for family, address in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            probe = socket.socket(family)
        except OSError:  # no IPv6 here: nothing can listen on ::1 either
            continue
        with probe:
            try:
                probe.bind((address, port))
            except OSError as error:
                if family == socket.AF_INET6 and error.errno == errno.EADDRNOTAVAIL:  # IPv6 without ::1
                    continue
                return False
    return True


def free_port():
    """A loopback port for a server a test starts, chosen so nothing else can take it before the server binds it:
    outside the kernel's ephemeral range (an outgoing connection of this very run, or a connect to a closed port,
    never gets it as its local port), never one handed out before in this process, held for the rest of this process
    by an flock'ed file in PORT_LOCKS (so another pytest process at the same time skips it), and free when checked."""
    with _ports_lock:
        PORT_LOCKS.mkdir(mode=0o700, exist_ok=True)
        for port in port_candidates():
            if port in _ports_handed_out:
                continue
            lock = open(PORT_LOCKS / str(port), "a")  # not inherited by the servers (O_CLOEXEC)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another pytest process holds it
                lock.close()
                continue
            if not bindable(port):
                lock.close()
                continue
            _ports_handed_out.add(port)
            _port_lock_files.append(lock)
            return port
    raise RuntimeError("no free loopback port left")
