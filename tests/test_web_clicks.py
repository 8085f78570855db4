"""The clicks a web face could not write at once (a one-click unsubscribe, a Slack click's votes,
while the state database is locked or away) are kept in `<db>.clicks`, and every face on that
state looks at it while it runs: a click is recorded soon after the database is back, whichever
face kept it, even one that stopped or crashed meanwhile; one already written is not again."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from contextlib import suppress
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


# A face's own kept unsubscribe, recorded meanwhile by a run or another face (reg22 F2)


def unsubscribe(key: str) -> clicks.Click:
    """ben's one-click unsubscribe as a face takes it."""
    from datetime import datetime

    at = datetime.fromisoformat(AT)
    return clicks.Click(key, at, at, (), "", (("ben", "email"),))


@pytest.fixture
def locked(tmp_path: Path, monkeypatch) -> Any:
    """A state (with its spool), its database held by another process, a face on it that tries
    its kept clicks again only when the test says (flush())."""
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 0.5)  # within ACK_BUDGET: kept at once
    monkeypatch.setattr(clicks, "FIRST_RETRY", 3600.0)
    state = str(tmp_path / "state.db")
    Store(state).close()
    access = Access(state)
    face = Clicks(access, Spool(Path(f"{state}.clicks")))
    held = Held(state)
    try:
        yield state, face, held
    finally:
        with suppress(sqlite3.ProgrammingError):  # (released by the test already)
            held.release()
        face.stop()
        access.close()


def test_a_faces_own_kept_unsubscribe_a_run_recorded_is_not_written_after_a_resume(
    locked: Any,
) -> None:
    import asyncio

    state, face, held = locked
    assert asyncio.run(face.take(unsubscribe("pause:ben:own"))) is True  # kept, database away
    assert [r["key"] for r in Spool(Path(f"{state}.clicks")).load()] == ["pause:ben:own"]
    held.release()
    with Store(state) as store:  # `digest retry` (settle()) and then `digest resume ben`
        assert clicks.settle(store) == 1
        assert store.web.resume("ben") == ["email"]
    assert face.flush() and pauses(state) == []  # the resume stands
    assert not face.kept


def test_one_another_face_wrote_is_not_written_again_by_the_face_that_kept_it(
    locked: Any,
) -> None:
    import asyncio

    state, face, held = locked
    asyncio.run(face.take(unsubscribe("pause:ben:own")))
    held.release()
    other = Clicks(Access(state), Spool(Path(f"{state}.clicks")))  # face B adopts it
    other.stop()  # and writes it (its last try)
    other.access.close()
    assert pauses(state) == [("ben", "email")] and not Spool(Path(f"{state}.clicks")).load()
    with Store(state) as store:
        store.web.resume("ben")
    assert face.flush() and pauses(state) == []


def test_a_click_kept_at_the_answer_and_recorded_before_its_write_failed_is_not_kept_again(
    locked: Any, monkeypatch
) -> None:
    """take() keeps the click in the spool when the database does not answer in time; the write
    goes on, and fails later: a run had recorded the spool's copy meanwhile, and keeping it again
    brought it back to life in the spool, for every face and the next run to write again."""
    import asyncio

    monkeypatch.setattr(clicks, "ACK_BUDGET", 0.1)
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 1.5)
    state, face, held = locked
    spool = Spool(Path(f"{state}.clicks"))
    assert asyncio.run(face.take(unsubscribe("pause:ben:late"))) is None  # answered, on disk
    assert [r["key"] for r in spool.load()] == ["pause:ben:late"]
    spool.done(["pause:ben:late"])  # recorded (and resumed) by a run between two of its locks
    face.pool.shutdown(wait=True)  # the write gives up on the lock
    held.release()
    assert spool.load() == [] and face.flush() and pauses(state) == []


# A damaged spool (reg22 F8): a record no state can take costs itself alone


def damaged_spool(path: Path) -> None:
    """A spool with one good unsubscribe among records no state can take, each kind of damage."""
    good = kept("pause:ben:good")
    bad: list[dict[str, Any]] = [
        {"key": "k1", "until": "0001-01-01T00:00:00+14:00", "at": "0001-01-01T00:00:00+14:00",
         "votes": [["ana", "2501.00001", "up"]], "pauses": []},
        {**good, "key": "k2", "at": "9999-12-31T23:59:59-23:59"},
        {**good, "key": "k3", "until": "0999-06-01T00:00:00+00:00"},
        {**good, "key": "k4", "at": "3026-12-06T18:00:00+00:00"},  # a click in ten centuries
        {**good, "key": "k5", "at": 1733500000},
        {**good, "key": "k6", "pauses": [[7, "email"]]},
        {**good, "key": "k7", "votes": [["ana", ["2501.00001"], "up"]], "pauses": []},
        {**good, "key": "k8", "pauses": [["b" * 5_000_000, "email"]]},
        {**good, "key": "k9", "votes": [["ana", "p" * 5_000_000, "up"]]},
        {**good, "key": "k10", "pauses": [["ben\ud800", "email"]]},
        {**good, "key": "k11", "pauses": {"ben": "email"}},
        {**good, "key": "k12", "votes": "ana p1 up"},
    ]  # fmt: skip
    lines = [json.dumps(r).encode() for r in bad[:6]]
    lines += [b"", '{"key": "k13", "at": "caf\xe9"}'.encode("latin-1"), b"\x00" * 64]
    lines += [json.dumps(r).encode() for r in [*bad[6:], good]]
    path.write_bytes(b"\n".join(lines) + b"\n")


def test_a_damaged_record_is_skipped_with_one_warning_and_the_others_are_recorded(
    tmp_path: Path, caplog
) -> None:
    state = tmp_path / "state.db"
    damaged_spool(Path(f"{state}.clicks"))
    with Store(state) as store:
        assert clicks.settle(store) == 1
        assert [(p.subscriber, p.channel) for p in store.web.pauses()] == [("ben", "email")]
        taken = store.db.execute("SELECT key FROM slack_requests").fetchall()
        assert [r[0] for r in taken] == ["pause:ben:good"]  # a damaged record's key is not
    warned = [r.getMessage() for r in caplog.records if "cannot be recorded" in r.getMessage()]
    assert len(warned) == 1 and warned[0].startswith(f"{state}.clicks: 12 kept clicks")
    assert len(warned[0]) < 1000  # what is wrong, not the records themselves
    assert Path(f"{state}.clicks").read_text(encoding="utf-8") == ""  # dropped for good
    caplog.clear()
    with Store(state) as store:
        assert clicks.settle(store) == 0 and not caplog.text


@pytest.mark.parametrize("command", ["run", "retry"])
def test_digest_run_and_retry_go_on_past_a_record_with_a_time_out_of_range(
    web: Project, capsys, command: str
) -> None:
    from web_project import MONDAY

    if command == "retry":  # (a state to retry on)
        assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    damaged_spool(Path(f"{web.state}.clicks"))
    code, _, err = web.digest(capsys, command, "--now", MONDAY)
    assert code == 0 and "Traceback" not in err and "cannot be recorded, skipped" in err, err
    assert pauses(web.state) == [("ben", "email")]
    assert command == "retry" or not web.mails("ben@example.org")


def test_the_retry_thread_outlives_a_failure_and_tries_later_clicks(
    tmp_path: Path, caplog, monkeypatch
) -> None:
    """One failure the thread did not expect had ended it for good, self.retrier still set: no
    later kept click of that face was tried again until a restart."""
    monkeypatch.setattr(clicks, "LOOK", 0.1)
    monkeypatch.setattr(clicks, "FIRST_RETRY", 0.1)
    monkeypatch.setattr(clicks, "LAST_RETRY", 0.2)
    state = str(tmp_path / "state.db")
    Store(state).close()
    spool = Spool(Path(f"{state}.clicks"))
    access = Access(state)
    face = Clicks(access, spool)
    load, write, failed = Spool.load, Clicks._write, []

    def load_failing_once(spool: Spool) -> list[dict[str, Any]]:
        if not failed:
            failed.append(True)
            raise RuntimeError("the first look fails")
        return load(spool)

    def write_refusing_ana(self: Clicks, click: clicks.Click, late: bool) -> bool:
        if click.key == "pause:ana:odd":
            raise OverflowError("date value out of range")  # an error of this record alone
        return write(self, click, late)

    monkeypatch.setattr(Spool, "load", load_failing_once)
    monkeypatch.setattr(Clicks, "_write", write_refusing_ana)
    try:
        spool.keep({**kept("pause:ana:odd"), "pauses": [["ana", "email"]]})
        deadline = time.monotonic() + 10
        while "not recorded, left in" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        spool.keep(kept("pause:ben:later"))
        assert paused_within(state, 10) == [("ben", "email")]
        assert face.retrier is not None and face.retrier.is_alive()
        assert "the first look fails" in caplog.text and "not recorded, left in" in caplog.text
        assert caplog.text.count("not recorded") == 1  # said once, not at every look
        assert [r["key"] for r in spool.load()] == ["pause:ana:odd"]
    finally:
        face.stop()
        access.close()


def test_a_look_at_the_spool_while_a_kept_click_is_written_takes_it_up_no_second_time(
    tmp_path: Path, monkeypatch
) -> None:
    """flush() takes the kept clicks out of `kept` while it writes them: a look at the spool then
    (the retry thread's, while stop() writes the last ones) took the click up again, and the
    face wrote it a second time, after whatever came between."""
    state = str(tmp_path / "state.db")
    Store(state).close()
    spool = Spool(Path(f"{state}.clicks"))
    spool.keep(kept("pause:ben:1"))
    access = Access(state)
    monkeypatch.setattr(clicks, "FIRST_RETRY", 3600.0)  # the face's thread leaves it to the test
    face = Clicks(access, spool)
    write, looked = Clicks._write, []

    def write_and_look(self: Clicks, click: clicks.Click, late: bool) -> bool:
        looked.append(self._adopt())  # the other thread's look, in the middle of the write
        return write(self, click, late)

    monkeypatch.setattr(Clicks, "_write", write_and_look)
    try:
        assert face.flush() and looked == [False] and not face.kept
    finally:
        face.stop()
        access.close()
    assert pauses(state) == [("ben", "email")] and spool.load() == []


def test_a_face_on_a_damaged_spool_records_the_good_click_and_its_thread_goes_on(
    tmp_path: Path, caplog, monkeypatch
) -> None:
    """The probe's face: "Exception in thread digest-slack-retry ... OverflowError", and no kept
    click of that face was tried again until a restart."""
    monkeypatch.setattr(clicks, "FIRST_RETRY", 0.1)
    state = str(tmp_path / "state.db")
    Store(state).close()
    damaged_spool(Path(f"{state}.clicks"))
    access = Access(state)
    face = Clicks(access, Spool(Path(f"{state}.clicks")))
    try:
        assert paused_within(state, 10) == [("ben", "email")]
        assert face.retrier is not None and face.retrier.is_alive()
    finally:
        face.stop()
        access.close()
    assert caplog.text.count("cannot be recorded, skipped") == 1


# A spool the writer cannot mark done (reg24 F3): the state keeps each click's key


def unmarkable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every later line to the spools refused, as a face's spool of another user (`chattr +i`
    in reg24) refuses a run: its done marks fail. (A fault injected where open() fails: chmod
    stops no root, and the tests run as root.)"""

    opened = Spool._locked

    def locked(self: Spool, mode: str) -> Any:
        if mode != "rb":  # read, yes; appended to or emptied, no
            raise PermissionError(1, "Operation not permitted")
        return opened(self, mode)

    monkeypatch.setattr(Spool, "_locked", locked)


def test_a_kept_unsubscribe_a_run_cannot_mark_done_is_recorded_once_and_resume_holds(
    web: Project, capsys, monkeypatch
) -> None:
    """Every run had paused ben again from the face's spool it could not mark done: `digest
    resume` said "resumed", and the next run stopped his mail once more."""
    from web_project import IMAGES, MONDAY, TUESDAY, papers_file

    spool = Spool(Path(f"{web.state}.clicks"))
    spool.keep(kept("pause:ben:unmarkable"))  # the face died with it
    unmarkable(monkeypatch)
    code, _, err = web.digest(capsys, "run", "--now", MONDAY)
    assert code == 0 and pauses(web.state) == [("ben", "email")]
    assert not web.mails("ben@example.org")
    said = f"{spool.path}: cannot mark a click as recorded (Operation not permitted)"
    assert said in err and "Slack click" not in err and "cannot empty" not in err
    code, out, _ = web.digest(capsys, "resume", "ben")
    assert code == 0 and "ben: email resumed" in out
    papers_file(web.root / "feed" / "tuesday.jsonl", IMAGES[2:])
    code, _, err = web.digest(capsys, "run", "--now", TUESDAY)
    assert code == 0 and pauses(web.state) == [] and len(web.mails("ben@example.org")) == 1
    assert said in err and "recorded now" not in err  # still listed, not recorded again
    assert [r["key"] for r in spool.load()] == ["pause:ben:unmarkable"]


def test_kept_clicks_settled_from_an_unmarkable_spool_are_written_once_for_good(
    tmp_path: Path, caplog, monkeypatch
) -> None:
    """An unsubscribe and a Slack click's votes: settled, resumed (the reader's rating taken back
    by hand), a Slack click a year on (it forgets the stale keys), settled again: nothing."""
    from datetime import timedelta

    from digest.models import Paper

    state = tmp_path / "state.db"
    spool = Spool(Path(f"{state}.clicks"))
    spool.keep(kept("pause:ben:1"))
    spool.keep({"key": "slack:1", "until": AT, "at": AT, "votes": [["ana", "p1", "up"]]})
    unmarkable(monkeypatch)
    with Store(state) as store:
        store.add_papers([Paper("p1", "Paper 1", "An abstract.")], unsubscribe("-").at)
        assert clicks.settle(store) == 2
        assert store.web.resume("ben") == ["email"]
        store.db.execute("DELETE FROM ratings")
        year = unsubscribe("-").at + timedelta(days=365)
        assert store.votes.click("slack:2", year, [], year) == []
        caplog.clear()
        assert clicks.settle(store) == 0
        assert store.web.pauses() == [] and store.ratings.listing() == []
    assert "recorded now" not in caplog.text and len(spool.load()) == 2


def test_a_faces_write_that_waited_past_a_runs_settle_and_a_resume_pauses_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    """The face answered ben at ACK_BUDGET and kept his click in the spool while its write
    waited for the database; a run recorded the spool's copy and the operator resumed ben
    meanwhile. The write, checked against the spool before it began, paused him again."""
    import asyncio
    import threading

    monkeypatch.setattr(clicks, "ACK_BUDGET", 0.1)
    monkeypatch.setattr(clicks, "FIRST_RETRY", 3600.0)
    state = str(tmp_path / "state.db")
    Store(state).close()
    access, spool = Access(state), Spool(Path(f"{state}.clicks"))
    face, lock = Clicks(access, spool), threading.Event()
    leased = access.lease

    def waiting(*args: Any) -> Any:  # the database's lock, held until the test says
        lock.wait(30)
        return leased(*args)

    monkeypatch.setattr(access, "lease", waiting)
    try:
        assert asyncio.run(face.take(unsubscribe("pause:ben:waited"))) is None  # answered
        assert [r["key"] for r in spool.load()] == ["pause:ben:waited"]
        with Store(state) as store:
            assert clicks.settle(store) == 1 and store.web.resume("ben") == ["email"]
        lock.set()  # the face's write takes the lock at last
        face.pool.shutdown(wait=True)
    finally:
        lock.set()
        face.stop()
        access.close()
    assert pauses(state) == [] and not spool.load()


def test_a_face_on_a_spool_it_cannot_mark_writes_a_kept_click_once(
    tmp_path: Path, caplog, monkeypatch
) -> None:
    """A face took up another face's unsubscribe and wrote it, but could not mark it done: it
    took it up again at each look (every LOOK seconds) and paused ben again after a resume."""
    monkeypatch.setattr(clicks, "LOOK", 0.2)
    state = str(tmp_path / "state.db")
    Store(state).close()
    spool = Spool(Path(f"{state}.clicks"))
    spool.keep(kept("pause:ben:other"))
    unmarkable(monkeypatch)
    access = Access(state)
    face = Clicks(access, spool)
    try:
        assert paused_within(state, 30) == [("ben", "email")]
        with Store(state) as store:
            store.web.resume("ben")
        time.sleep(1.5)  # several looks at the spool, which lists it still
        assert pauses(state) == [] and face._adopt() is False
    finally:
        face.stop()
        access.close()
    marks = [r for r in caplog.records if "cannot mark a click as recorded" in r.getMessage()]
    assert len(marks) == 1 and len(spool.load()) == 1
