"""What PostgreSQL's faults look like to the user: a server that goes away under a store is one
line saying why (not the pool's own warnings, a dozen lines each), a restarted server's lost
connections are replaced, and every command reads the state from the URL it was given."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support_postgres import Cluster, Cuttable

from digest.cli import main
from digest.models import Paper, StateError
from digest.state import Store, postgres

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
PASSWORD = "s3cr3t-pw"


def with_password(url: str) -> str:
    return url.replace("digest@", f"digest:{PASSWORD}@")  # trust auth: any password is taken


def test_a_server_gone_under_a_store_is_one_line_saying_why(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    proxy = Cuttable(postgres_cluster.port)
    url = with_password(proxy.url(postgres_cluster.create_database()))
    with Store(url) as store:
        proxy.cut()  # the server stopped: its connections dropped, new ones refused
        with caplog.at_level(logging.DEBUG, logger="psycopg"), pytest.raises(StateError) as info:
            store.outbox_counts()
    message = str(info.value)
    assert message.startswith(f"postgresql://digest@127.0.0.1:{proxy.port}/")
    assert "no connection to the server within 1 s" in message and "refused" in message
    assert PASSWORD not in message and "\n" not in message
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_restarted_servers_lost_connections_are_replaced(postgres_cluster: Cluster) -> None:
    proxy = Cuttable(postgres_cluster.port)
    with Store(proxy.url(postgres_cluster.create_database())) as store:
        store.add_papers([Paper("2611.00001", "A paper", "x")], NOW)
        proxy.cut()
        proxy.mend()  # back after its restart
        assert store.count_papers() == 1


CONFIG = """
[state]
url = "{url}"

[[sources]]
kind = "files"
path = "papers.jsonl"

[smtp]
host = "127.0.0.1"
from = "digest@example.org"
security = "none"

[[subscribers]]
name = "ana"
interests = "graph neural networks"

[[subscribers.channels]]
kind = "email"
to = "ana@example.org"
"""


def test_ratings_and_resume_read_the_postgresql_state(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "digest.toml"
    config.write_text(CONFIG.format(url=postgres_url), encoding="utf-8")
    with Store(postgres_url) as store:
        store.add_papers([Paper("2611.00001", "Graph neural networks", "x")], NOW)
        store.web.pause("ana", ["email"], NOW)
    assert main(["feedback", "--config", str(config), "ana", "2611.00001", "up"]) == 0
    capsys.readouterr()
    assert main(["ratings", "--config", str(config)]) == 0
    assert "ana  up    2611.00001  (via cli)" in capsys.readouterr().out
    assert main(["resume", "--config", str(config), "ana"]) == 0
    assert "ana: email resumed" in capsys.readouterr().out
    with Store(postgres_url) as store:
        assert store.web.pauses() == []
