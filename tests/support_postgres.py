"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, initdb in a temp folder,
one server on 127.0.0.1 at a free port for the whole session, and a fresh database per test made
from a template; Cuttable, a proxy in front of it that can drop its connections as a restart does.
Missing binaries skip the tests that need them, with how to get them."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
from channel_servers import free_port

HOW_TO_GET = "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install postgresql"
SUPERUSER = "digest"
TEMPLATE = "digest_template"  # empty for now; a test of the state layer may fill it once
UNPRIVILEGED = "nobody"  # initdb and postgres refuse to run as root
START_TIMEOUT = 60  # seconds: a 2-core machine running several suites can be slow to start it
# Durability costs time and buys nothing for a cluster that is thrown away after the run.
SERVER_SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",  # the multi-worker tests open pools from several processes
}


def server_binaries() -> Path | None:
    """The folder with initdb and pg_ctl: PATH first, else Debian's newest
    /usr/lib/postgresql/<version>/bin (which Debian keeps off PATH)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    folders = glob.glob("/usr/lib/postgresql/*/bin")
    usable = [Path(f) for f in folders if (Path(f) / "initdb").exists()]
    usable.sort(key=lambda f: int(f.parent.name) if f.parent.name.isdigit() else 0)
    return usable[-1] if usable else None


class Cluster:
    """A running cluster: `create_database()` gives the URL of a new, empty database."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.root = Path(tempfile.mkdtemp(prefix="digest-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self.names = count(1)
        self.user = UNPRIVILEGED if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        started = time.monotonic()
        try:
            # --no-sync: the cluster never outlives the run. Locale C: the same sort order and
            # error messages on every machine, whatever its own locale.
            self._run(
                "initdb", "-D", self.data, f"--username={SUPERUSER}", "--auth=trust",
                "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions",
            )  # fmt: skip
            self._start()
            self.execute(f"CREATE DATABASE {TEMPLATE} IS_TEMPLATE true")
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - started

    def _command(self, program: str, *args: object) -> list[str]:
        command = [str(self.binaries / program), *map(str, args)]
        return ["runuser", "-u", self.user, "--", *command] if self.user else command

    def _run(self, program: str, *args: object) -> None:
        # cwd: the unprivileged user cannot enter the test's own (root-owned) working directory.
        result = subprocess.run(
            self._command(program, *args), cwd=self.root, capture_output=True, text=True
        )
        if result.returncode != 0:
            raise RuntimeError(f"{program} failed ({result.returncode}): {result.stderr.strip()}")

    def _start(self) -> None:
        # A free port can be taken by someone else between the probe and the bind: try again.
        for attempt in range(3):
            self.port = free_port()
            options = " ".join(f"-c {key}={value}" for key, value in SERVER_SETTINGS.items())
            options += f" -p {self.port} -k {self.root}"
            try:
                self._run(
                    "pg_ctl", "start", "-D", self.data, "-l", self.log, "-w",
                    "-t", START_TIMEOUT, "-o", options,
                )  # fmt: skip
                return
            except RuntimeError:
                if attempt == 2 or "could not bind" not in self.server_log():
                    raise RuntimeError(f"postgres did not start:\n{self.server_log()}") from None

    def server_log(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str, database: str = "postgres") -> None:
        """One statement outside a transaction (CREATE DATABASE cannot run inside one)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.encode())

    def create_database(self, template: str = TEMPLATE) -> str:
        """A new database copied from `template`; its URL."""
        name = f"test_{next(self.names)}"
        # FILE_COPY: a small template copies faster as files, and its checkpoints are cheap here.
        self.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        return self.url(name)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                self._command("pg_ctl", "stop", "-D", self.data, "-m", "immediate", "-w"),
                cwd=self.root,
                capture_output=True,
            )
            self.port = 0
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """The session's cluster, started on first use and stopped at the end of the session."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip(HOW_TO_GET)
    cluster = Cluster(binaries)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """postgresql://digest@127.0.0.1:PORT/test_N: a fresh, empty database for this test."""
    return postgres_cluster.create_database()


class Cuttable:
    """A TCP proxy on 127.0.0.1 in front of a server: cut() drops every connection through it and
    refuses new ones, as a server that stopped or crashed leaves its clients; mend() listens on
    the same port again, as the server back after its restart."""

    def __init__(self, upstream: int) -> None:
        self.upstream, self.port = upstream, free_port()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.listening = threading.Event()
        self.mend()

    def url(self, url: str) -> str:
        """`url` (one of the cluster's) through this proxy."""
        return url.replace(f":{self.upstream}/", f":{self.port}/")

    def mend(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port))
        listener.settimeout(0.05)
        self.listening.set()
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        self.listening.clear()
        time.sleep(0.1)  # the listener closes within its accept timeout
        for pair in self.pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()
        self.pairs = []

    def _accept(self, listener: socket.socket) -> None:
        with listener:
            while self.listening.is_set():
                try:
                    client, _ = listener.accept()
                except TimeoutError:
                    continue
                server = socket.create_connection(("127.0.0.1", self.upstream))
                self.pairs.append((client, server))
                for a, b in ((client, server), (server, client)):
                    threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


def lapse(url: str, *row_ids: int) -> None:
    """End the leases of these outbox rows (every leased row, given none) as if their 10
    minutes had passed: a lease is timed on the server's clock, which a test cannot move."""
    import psycopg

    where = " AND id = ANY(%s)" if row_ids else ""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "UPDATE outbox SET lease_until = '2000-01-01T00:00:00Z'"
            " WHERE lease_until IS NOT NULL" + where,
            (list(row_ids),) if row_ids else (),
        )
