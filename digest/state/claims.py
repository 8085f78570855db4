"""Who holds a claimed outbox row: a process, not a name. A claim (outbox.claimed_by) is the
worker's name, what `digest status` shows, and its process's own token: its machine (hostname and
pid namespace), its pid and a random nonce ("worker-1#host/4026531836:4242:9f3a2b1c0d4e"). Two
live processes under one DIGEST_WORKER are two holders: neither claims, renews nor marks the
other's rows. A process takes back at once only the rows of its own name whose holder is known
to have ended; any other when its lease ends."""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterable

from digest.state.dialect import server_stamp
from digest.state.engine import Engine

MARK = "#"  # between the name and the token: the last one (a name may hold one, a token never)
CLOCK = server_stamp()  # a lease is timed on the database server's clock (deliveries.py)
_made: tuple[int, str] | None = None  # (the pid it was made in, the token)


def token() -> str:
    """This process's token: made once, and again in a forked child (another pid)."""
    global _made
    pid = os.getpid()
    if _made is None or _made[0] != pid:
        _made = (pid, f"{machine()}:{pid}:{secrets.token_hex(6)}")
    return _made[1]


def machine() -> str:
    """Where a pid names one process: the hostname and the pid namespace. Containers that share
    the host's hostname (host networking) are each pid 1 in a namespace of their own: by the
    hostname alone each took the other's live rows for a dead predecessor's, and sent them twice."""
    try:
        space = f"/{os.stat('/proc/self/ns/pid').st_ino}"
    except OSError:  # no /proc (macOS): the hostname alone
        space = ""
    return socket.gethostname() + space


def claim(worker: str) -> str:
    """What this process writes in claimed_by as the worker `worker`."""
    return f"{worker}{MARK}{token()}"


def holder(claimed_by: str) -> str:
    """The worker's name in a claim (one made by an older digest is the name alone)."""
    name, _, rest = claimed_by.rpartition(MARK)
    return name if _process(rest) else claimed_by


def ended(claimed_by: str) -> bool:
    """Whether the process that made the claim is known to be gone: one of this machine (this
    pid namespace) whose pid names no process now, or names this one. Of another machine, a
    container restarted (a namespace of its own), or a claim with no token, nothing is known:
    its rows wait for their lease to end."""
    found = _process(claimed_by.rpartition(MARK)[2])
    if found is None or found[0] != machine():
        return False
    if found[1] == os.getpid():
        return claimed_by.rpartition(MARK)[2] != token()
    return not alive(found[1])


def unheld(db: Engine, worker: str, mine: str) -> tuple[str, list[str]]:
    """On PostgreSQL, which due rows this process may claim (an SQL condition and its
    arguments): those no live lease holds, and those whose lease is its own (a run of it cut
    short by an error) or of its name's processes that ended (a worker killed and restarted)."""
    back = [mine, *(c for c in _leased(db) if holder(c) == worker and c != mine and ended(c))]
    marks = ", ".join("?" * len(back))
    return f" AND (lease_until IS NULL OR lease_until <= {CLOCK} OR claimed_by IN ({marks}))", back


def _leased(db: Engine) -> Iterable[str]:
    query = "SELECT DISTINCT claimed_by FROM outbox WHERE status = 'pending' AND lease_until > "
    return [str(row[0]) for row in db.execute(query + CLOCK)]


def _process(text: str) -> tuple[str, int] | None:
    """(machine, pid) of a token, or None: not one."""
    host, _, rest = text.partition(":")
    pid, _, nonce = rest.partition(":")
    if not host or not pid.isdigit() or not nonce or ":" in nonce:
        return None
    return host, int(pid)


def alive(pid: int) -> bool:
    """Whether a process of this machine has the pid (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # alive under another user; not a pid at all
        return True
    return True
