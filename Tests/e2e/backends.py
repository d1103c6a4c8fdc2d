"""The e2e suite's view of a stack's database, on either backend (issue 23): one small adapter that tests reach through
Stack (connect, query, records, count, tables, integrity, foreign_key_problems, stored_bytes).

Options (environment): FRONTDOOR_E2E_BACKEND = "sqlite" (the default: each stack a file in its folder) or
"postgresql" (one private cluster per pytest process, started by scripts/pg-cluster on first use in a folder directly
in /tmp, stopped and removed at the end by stop_cluster; each stack a new database in it).

Statements are written once, in SQLite's style with `?` (and `?N`) placeholders; on PostgreSQL they go through psycopg
3 with the placeholders rewritten. Rows come back as tuples of the same Python types on both (PostgreSQL's booleans
are True/False, which compare equal to SQLite's 1/0). Column names of `records` are compared without case, since
PostgreSQL folds unquoted names to lower case.
"""
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import uuid
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BACKEND = os.environ.get("FRONTDOOR_E2E_BACKEND") or "sqlite"
if BACKEND not in ("sqlite", "postgresql"):
    raise RuntimeError(f"FRONTDOOR_E2E_BACKEND must be sqlite or postgresql, not {BACKEND!r}")
POSTGRESQL = BACKEND == "postgresql"


class Record(dict):
    """A row as a dict whose keys are found without regard to case (socialIdentity's "accountId" is "accountid" on
    PostgreSQL)."""

    def __init__(self, pairs):
        super().__init__((name.lower(), value) for name, value in pairs)

    def __getitem__(self, name):
        return super().__getitem__(name.lower())


# MARK: - SQLite: the stack's file


class SQLiteStore:
    kind = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)

    def connect(self):
        """A sqlite3 connection that waits up to 60 s for frontdoor's write lock (the default, 5 s, is short on a
        loaded machine). Use it with contextlib.closing; `with db:` commits."""
        return sqlite3.connect(self.path, timeout=60)

    def query(self, sql, *args):
        with closing(self.connect()) as db, db:
            return db.execute(sql, args).fetchall()

    def records(self, sql, *args):
        with closing(self.connect()) as db:
            cursor = db.execute(sql, args)
            names = [column[0] for column in cursor.description]
            return [Record(zip(names, row)) for row in cursor.fetchall()]

    def tables(self):
        return [name for (name,) in self.query("SELECT name FROM sqlite_master WHERE type = 'table'")]

    def integrity(self):
        """`PRAGMA integrity_check`: [("ok",)] when the file is sound."""
        return self.query("PRAGMA integrity_check")

    def foreign_key_problems(self):
        return self.query("PRAGMA foreign_key_check")

    def stored_bytes(self):
        """Every byte SQLite keeps for the stack: the file with its -wal and -shm (free pages and old frames too)."""
        return b"".join(path.read_bytes() for path in self.path.parent.glob(self.path.name + "*"))


# MARK: - PostgreSQL: a database in the session's private cluster


def translate(sql, args):
    """SQLite's placeholders as psycopg's: `?` → %s in order, `?N` → %s with the N-th argument; a literal % doubled."""
    out, ordered, position = [], [], 0
    for part in re.split(r"(\?\d*)", sql.replace("%", "%%")):
        if part.startswith("?"):
            if len(part) > 1:
                ordered.append(args[int(part[1:]) - 1])
            else:
                ordered.append(args[position])
                position += 1
            out.append("%s")
        else:
            out.append(part)
    return "".join(out), ordered


class PostgresConnection:
    """A psycopg connection with sqlite3's shape: execute(sql, args) takes `?` statements; `with db:` commits."""

    def __init__(self, url):
        import psycopg  # only the PostgreSQL run needs it
        self.connection = psycopg.connect(url)

    def execute(self, sql, args=()):
        return self.connection.execute(*translate(sql, list(args)))

    def commit(self):
        self.connection.commit()

    def close(self):
        self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        (self.connection.commit if kind is None else self.connection.rollback)()
        return False


class PostgresStore:
    kind = "postgresql"

    def __init__(self, url):
        self.url = url

    def connect(self):
        return PostgresConnection(self.url)

    def query(self, sql, *args):
        with closing(self.connect()) as db, db:
            cursor = db.execute(sql, args)
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []

    def records(self, sql, *args):
        with closing(self.connect()) as db, db:
            cursor = db.execute(sql, args)
            names = [column.name for column in cursor.description]
            return [Record(zip(names, row)) for row in cursor.fetchall()]

    def tables(self):
        return [name for (name,) in self.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")]

    def integrity(self):
        """PostgreSQL's nearest to `PRAGMA integrity_check`: contrib's amcheck over every table (verify_heapam) and every
        B-tree index with its table (bt_index_check, heapallindexed); [("ok",)] when it finds nothing."""
        self.query("CREATE EXTENSION IF NOT EXISTS amcheck")
        problems = self.query(
            "SELECT c.relname, v.blkno, v.msg FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, "
            "LATERAL verify_heapam(c.oid) v WHERE n.nspname = 'public' AND c.relkind = 'r'")
        self.query("SELECT bt_index_check(i.indexrelid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                   "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam "
                   "WHERE n.nspname = 'public' AND a.amname = 'btree'")   # raises on a broken index
        return [tuple(map(str, row)) for row in problems] or [("ok",)]

    def foreign_key_problems(self):
        """None can exist: PostgreSQL checks every foreign key when the statement runs (none is deferred or off)."""
        return []

    def stored_bytes(self):
        """Every value of every table (bytes as they are and in hex, the rest as text): what the database holds for
        the stack (its files are the cluster's, shared with every other stack of the run)."""
        parts = []
        for table in self.tables():
            for row in self.query(f"SELECT * FROM {table}"):
                for value in row:
                    parts.append(value + value.hex().encode() if isinstance(value, bytes) else str(value).encode())
        return b"\n".join(parts)


_cluster_lock = threading.Lock()
_cluster = {}


def start_cluster(prefix="frontdoor-e2e-pg-"):
    """A new private cluster (scripts/pg-cluster) in a folder of its own directly in /tmp (as root the cluster runs as
    `postgres`, which must reach the folder); returns (folder, URL of its `postgres` database)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    started = subprocess.run([str(ROOT / "scripts/pg-cluster"), "start", str(folder)], capture_output=True, text=True)
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"scripts/pg-cluster start failed: {started.stderr.strip()}")
    return folder, started.stdout.strip()


def remove_cluster(folder):
    """Stops the cluster in `folder` and deletes the folder."""
    subprocess.run([str(ROOT / "scripts/pg-cluster"), "stop", str(folder)], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def psql(url, sql):
    """One statement through psql; its rows as psql's unaligned text."""
    return subprocess.run(["psql", url, "-AtX", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True,
                          text=True).stdout.strip()


def create_database(server, prefix="e2e_"):
    """A new, empty database in the cluster whose `postgres` database is at `server`; its URL."""
    name = prefix + uuid.uuid4().hex[:16]
    psql(server, f"CREATE DATABASE {name}")
    return server.replace("/postgres?", f"/{name}?")


def cluster_url():
    """The libpq URL of the `postgres` database of this process's private cluster, started on the first call."""
    with _cluster_lock:
        if not _cluster:
            folder, url = start_cluster()
            _cluster.update(folder=folder, url=url)
        return _cluster["url"]


def new_database():
    """A new, empty database in the private cluster; its URL."""
    return create_database(cluster_url())


def stop_cluster():
    with _cluster_lock:
        if _cluster:
            remove_cluster(_cluster["folder"])
            _cluster.clear()


def store_for(folder: Path, config: dict):
    """The store of a stack in `folder` with dotted settings `config` (changed in place): a stack that names its
    database.url keeps it; else on PostgreSQL it gets a new database, and on SQLite its file in `folder`."""
    url = config.get("database.url", "")
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return PostgresStore(url)
    if url.startswith("sqlite:"):
        return SQLiteStore(Path(url[len("sqlite:"):]))
    if POSTGRESQL and not url and "database.path" not in config:
        config["database.url"] = new_database()
        return PostgresStore(config["database.url"])
    return SQLiteStore(Path(config.get("database.path") or folder / "frontdoor.sqlite"))
