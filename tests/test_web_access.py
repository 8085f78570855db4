"""The web face's way to the state database: a write (a vote, an undo) is refused, 503 as a state
away is, once the config names another state than the one the face opened: never written where
no run reads it."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest import config
from digest.state import Store
from digest.web.access import Access, StateMoved
from digest.web.current import Current

CONFIG = """{state}
[web]
base_url = "https://digest.example.org"
secret = "a-long-enough-secret-for-tests"

[[sources]]
kind = "files"
path = "papers"

[[subscribers]]
name = "ana"
interests = "graph neural networks"
"""


def write(path: Path, state: str) -> None:
    path.write_text(CONFIG.format(state=state), encoding="utf-8")
    stamp = path.stat().st_mtime_ns + 10**9  # a later time, as an edit a second on would have
    os.utime(path, ns=(stamp, stamp))


def test_a_write_is_refused_once_the_config_names_another_state(tmp_path: Path) -> None:
    path = tmp_path / "digest.toml"
    write(path, "")
    settings = config.load(path)
    access = Access(settings.state_path, Current(settings, lambda: config.load(path)))
    try:
        now = datetime.now(UTC)
        rate = lambda store: store.ratings.rate("ana", "p1", "up", now, "web")  # noqa: E731
        write(path, '[state]\npath = "moved/digest.db"\n')
        with pytest.raises(StateMoved, match=r"digest.toml: \[state\] changed: restart"):
            asyncio.run(access.write(rate))
        assert asyncio.run(access(lambda store: store.ratings.listing(None))) == []  # reads go on
    finally:
        access.close()
    with Store(settings.state_path) as store:
        assert store.ratings.listing(None) == []
