"""The clicks a web face could not write at once (a one-click unsubscribe, a Slack click's votes,
while the state database is locked or away) are kept in `<db>.clicks`, and every face on that
state looks at it while it runs: a click is recorded soon after the database is back, whichever
face kept it, even one that stopped or crashed meanwhile; one already written is not again."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from channel_servers import free_port
from web_project import SECRET, Held, Project, project

from digest.state import Store, engine
from digest.web import clicks
from digest.web.access import Access
from digest.web.clicks import Clicks
from digest.web.spool import Spool
from digest.web.tokens import Signer

ONE_CLICK = b"List-Unsubscribe=One-Click"
AT = "2026-12-06T18:00:00+00:00"


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def pauses(state: str) -> list[tuple[str, str]]:
    with Store(state) as store:
        return [(p.subscriber, p.channel) for p in store.web.pauses()]


def paused_within(state: str, seconds: float) -> list[tuple[str, str]]:
    deadline = time.monotonic() + seconds
    while not (found := pauses(state)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return found


def test_an_unsubscribe_another_face_kept_is_recorded_by_a_face_still_running(
    web: Project, caplog, monkeypatch
) -> None:
    caplog.set_level(logging.INFO, "digest.web")
    # Face A kept ben's unsubscribe while a run held the database, and went away (OOM, a node
    # drained); face B on the same state ran on and never looked at the spool: the reader had
    # been told "Unsubscribed" and the next run mailed him.
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 1.0)  # SQLite gives up on a held lock sooner
    monkeypatch.setattr(clicks, "LOOK", 0.5, raising=False)
    unsubscribe = f"/u/{Signer(SECRET).sign('u', 'ben', 0)}"
    with web.web(port=free_port()):  # face B, started first and running throughout
        held = Held(web.state)
        try:
            with web.web() as face_a:
                answer = face_a.post(unsubscribe, content=ONE_CLICK)
                assert answer.status_code == 200 and "No more e-mail" in answer.text
            assert Spool(Path(f"{web.state}.clicks")).load()  # A stopped with it kept
        finally:
            held.release()
        assert paused_within(web.state, 30) == [("ben", "email")]
    assert "state.db.clicks, tried again now: an unsubscribe" in caplog.text
    assert "Slack click" not in caplog.text
    assert Path(f"{web.state}.clicks").read_text(encoding="utf-8") == ""  # nothing waits


def kept(key: str) -> dict[str, Any]:
    """An unsubscribe as a face keeps it in the spool."""
    return {"key": key, "until": AT, "at": AT, "votes": [], "pauses": [["ben", "email"]]}


def test_a_kept_unsubscribe_another_face_wrote_meanwhile_is_not_written_again(
    tmp_path: Path, caplog, monkeypatch
) -> None:
    caplog.set_level(logging.INFO, "digest.web")
    # Written twice, the second time after `digest resume ben`, it would stop his mail again.
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 0.5)
    state = str(tmp_path / "state.db")
    Store(state).close()
    spool = Spool(Path(f"{state}.clicks"))
    spool.keep(kept("pause:ben:1"))  # kept by a face on this state
    access = Access(state)
    held = Held(state)
    face = Clicks(access, spool)  # reads it, and tries it while the lock is held
    try:
        deadline = time.monotonic() + 30
        while "stayed locked" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "stayed locked" in caplog.text  # tried once, in vain
        spool.done(["pause:ben:1"])  # the face that kept it wrote it, and the operator resumed
    finally:
        held.release()
        face.stop()
        access.close()
    assert pauses(state) == []


def test_the_log_says_what_waits(tmp_path: Path, caplog, monkeypatch) -> None:
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 0.5)
    state = str(tmp_path / "state.db")
    Store(state).close()
    spool = Spool(Path(f"{state}.clicks"))
    spool.keep(kept("pause:ben:1"))
    spool.keep(kept("pause:ana:2"))
    spool.keep({"key": "slack:1", "until": AT, "at": AT, "votes": [["ana", "p1", "up"]]})
    access = Access(state)
    held = Held(state)
    try:
        face = Clicks(access, spool)
        face.stop()  # the database is still away: they wait in the spool for the next look
    finally:
        held.release()
        access.close()
    said = "2 unsubscribes and a Slack click's votes"
    assert f"state.db.clicks, tried again now: {said}" in caplog.text
    assert f"left waiting in {spool.path}: {said}" in caplog.text
    assert len(spool.load()) == 3


def test_a_run_records_the_clicks_a_face_kept_before_it_delivers(tmp_path: Path) -> None:
    """A face kept ben's unsubscribe while a run held the lock, then died: no command showed it,
    and the next `digest run` mailed the reader who had been told "Unsubscribed"."""
    from datetime import UTC, datetime, timedelta

    from digest.state.pauses import addressed

    state = tmp_path / "state.db"
    at = datetime(2026, 12, 6, 18, tzinfo=UTC)
    kept = clicks.Click("pause:ben:1", at + timedelta(days=1), at, (), "",
                        (("ben", addressed("email", ["ben@example.org"])),))  # fmt: skip
    Spool(Path(f"{state}.clicks")).keep(clicks._record(kept))
    with Store(state) as store:
        assert clicks.settle(store) == 1
        assert [(p.subscriber, p.addresses) for p in store.web.pauses()] == [
            ("ben", ("ben@example.org",))
        ]
        assert not Spool(Path(f"{state}.clicks")).waiting()
        assert clicks.settle(store) == 0  # written once


def test_digest_run_pauses_before_it_mails_an_unsubscribe_a_dead_face_kept(
    web: Project, capsys
) -> None:
    from web_project import MONDAY

    Spool(Path(f"{web.state}.clicks")).keep(kept("pause:ben:2"))  # the face died with it
    code, out, _ = web.digest(capsys, "run", "--now", MONDAY)
    assert code == 0 and "ben/email" not in out.split("paused")[0]
    assert not web.mails("ben@example.org") and pauses(web.state) == [("ben", "email")]


def test_digest_retry_records_a_kept_unsubscribe_before_it_mails_too(web: Project, capsys) -> None:
    from web_project import MONDAY

    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    Spool(Path(f"{web.state}.clicks")).keep(kept("pause:ben:3"))  # the face died with it
    code, _, _ = web.digest(capsys, "retry", "--now", MONDAY)
    assert code == 0 and pauses(web.state) == [("ben", "email")]
