"""The outbox's marks when the state database cannot take them: a pass held back while it could
not record a send goes on once a commit succeeds (PostgreSQL stopped and started again under a
run), a commit that succeeds clears the failure, and the marks a pass gives up on are named, by
who may get a message twice (a full SQLite file)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, ClassVar

import pytest
from support_postgres import SERVER_SETTINGS, Cluster, server_binaries

from digest import marks, outbox
from digest.models import (
    ChannelConfig,
    Delivery,
    Digest,
    Message,
    Paper,
    Profile,
    Receipt,
    Scored,
    Settings,
    StateError,
    Subscriber,
)
from digest.state import Store, postgres
from digest.state.engine import StateAway

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Took:
    """A channel whose server takes every message; `during` runs within the sends, in turn."""

    kind = "took"
    at_most_once = False
    during: ClassVar[list[Callable[[], None]]] = []
    calls: ClassVar[list[str]] = []
    detail = "taken"

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.name = config.name

    def send(self, delivery: Delivery) -> Receipt:
        self.calls.append(delivery.subscriber)
        if self.during:
            self.during.pop(0)()
        return Receipt(self.kind, self.detail)


class TookOnce(Took):
    at_most_once = True  # Slack's way: its sent mark is committed at once


class Posts(TookOnce):
    """Slack's way with parts: each claimed before its post and confirmed after it; `during`
    runs before each claim and after each post, in turn."""

    parts = 2

    def send(self, delivery: Delivery) -> Receipt:
        for index in range(delivery.parts_sent, self.parts):
            self.hook()
            delivery.progress(index + 1)
            self.calls.append(f"{delivery.subscriber}#{index + 1}")
            self.hook()
            if index + 1 < self.parts:
                delivery.progress(index + 1)
        return Receipt(self.kind, self.detail)

    def hook(self) -> None:
        if self.during:
            self.during.pop(0)()


def project(store: Store, *rows: tuple[str, str]) -> Settings:
    """One subscriber per (name, kind) row, each with one due digest on that channel kind."""
    subs = []
    for name, kind in rows:
        subs.append(Subscriber(name, Profile("x"), (ChannelConfig(kind, kind, {}),)))
        made = Digest(name, "P1", date(2026, 11, 30), (Scored(Paper("p", "T", "A"), 1),), NOW)
        store.record_digest(made, 1, [(kind, kind, Message("s", "t", "h"))])
    Took.during, Took.calls = [], []
    return Settings("t.toml", (), tuple(subs), delivery={"concurrency": 1})


def restart(cluster: Cluster, after: float) -> threading.Thread:
    """Stop the cluster's server now (pg_ctl stop -m fast) and start it again on its port after
    `after` seconds, in the background."""
    cluster._run("pg_ctl", "stop", "-D", cluster.data, "-m", "fast", "-w")
    options = " ".join(f"-c {key}={value}" for key, value in SERVER_SETTINGS.items())
    options += f" -p {cluster.port} -k {cluster.root}"

    def start() -> None:
        threading.Event().wait(after)
        cluster._run("pg_ctl", "start", "-D", cluster.data, "-l", cluster.log, "-w", "-o", options)

    thread = threading.Thread(target=start, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def own_cluster() -> Any:
    """A cluster of this test's own, as the session's must not stop under other tests."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL server binaries not found")
    cluster = Cluster(binaries)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.mark.parametrize("first", ["took", "once"])
def test_a_pass_goes_on_once_the_stopped_server_is_back_and_ends_without_its_error(
    own_cluster: Cluster,
    first: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """ops20 F1: PostgreSQL stopped mid-pass and back 40 s later; the marks were written once it
    was, yet the rest of the pass was left "(the state cannot be written)" and the run ended
    "the server is still unreachable", exit 2, recorded in that very database. The first row's
    mark waits in a batch ("took"), or is committed at once ("once", Slack's way): sent, both."""
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    with Store(own_cluster.create_database()) as store:
        settings = project(store, ("s0", first), *((f"s{n}", "took") for n in range(1, 4)))
        started: list[threading.Thread] = []
        Took.during.append(lambda: started.append(restart(own_cluster, 3.0)))
        caplog.set_level(logging.INFO, "digest.outbox")
        registry = {"took": Took, "once": TookOnce}
        outcome = outbox.deliver(store, settings, NOW, channels=registry)
        started[0].join(30)
        store.db.pool.timeout = 30.0
        assert outcome.sent == [f"s0/{first}: taken", *(f"s{n}/took: taken" for n in (1, 2, 3))]
        assert store.outbox_counts(NOW) == {"sent": 4}
        assert Took.calls == ["s0", "s1", "s2", "s3"]  # each once: s0's mark was written first
    assert "the state database is back; sending the 3 held back" in caplog.text
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    waits = [line for line in said if "for the state database:" in line]  # ops31 F4: once
    assert len(waits) == 1 and waits[0].startswith("outbox: 1 sent mark waits")
    back = [line for line in said if "the state database is back after" in line]
    assert len(back) == 1 and back[0].endswith(" s (1 sent mark waited)")


def stop_server(cluster: Cluster) -> None:
    cluster._run("pg_ctl", "stop", "-D", cluster.data, "-m", "fast", "-w")


@pytest.mark.parametrize("hooks", [1, 2])
def test_a_slack_part_never_claimed_is_not_named_taken_when_the_server_stays_away(
    own_cluster: Cluster,
    hooks: int,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """ops31 F1: PostgreSQL stopped mid-pass, away past SETTLE_SECONDS, just as a Slack row's
    first part was to be claimed: the run ended "2 deliveries the servers took are not
    recorded ... s01/slack", though the claim was never committed and nothing posted (the next
    run posted it, the first time). Stopped after that part's post instead (hooks 2), its
    confirmation is what the server took unrecorded, and named (s0's mark went with the claim).
    F4: the wait, told on each try (14 lines), is told as it starts and as it ends."""
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    monkeypatch.setattr(marks, "SETTLE_SECONDS", 3.0)
    monkeypatch.setattr(marks, "MARK_SECONDS", 60.0)  # no ticker commit between the sends
    with Store(own_cluster.create_database()) as store:
        settings = project(store, ("s0", "email"), ("s1", "slack"))
        Took.during.extend([lambda: None] * hooks + [lambda: stop_server(own_cluster)])
        registry = {"email": Took, "slack": Posts}
        with pytest.raises(StateError, match="unreachable"):
            outbox.deliver(store, settings, NOW, channels=registry)
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    errors = [line for line in said if line.startswith("outbox: ") and "not recorded" in line]
    assert len(errors) == 1
    if hooks == 1:  # s1's first part: its claim met the stopped server, so never posted
        assert Took.calls == ["s0"]
        assert errors[0].startswith("outbox: 1 delivery the servers took is not recorded (")
        assert errors[0].endswith("the next run sends these a second time: s0/email")
    else:  # posted, and its confirmation met the stopped server
        assert Took.calls == ["s0", "s1#1"]
        assert errors[0].startswith("outbox: 1 delivery the servers took is not recorded (")
        assert errors[0].endswith("the next run sends none of them twice: s1/slack")
    waits = [line for line in said if "for the state database:" in line]
    assert len(waits) == 1 and waits[0].startswith("outbox: 1 sent mark waits")
    assert waits[0].endswith("; tried again for up to 3 s")
    ended = [line for line in said if "gave up waiting for the state database after" in line]
    assert len(ended) == 1 and ended[0].endswith("(1 sent mark waited)")


def test_a_claim_not_committed_keeps_only_a_part_the_server_took(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ops31 F1: a claim's `kept` (the part before it, confirmed) had been queued even when it
    was the row as loaded, the send's first claim: nothing of it the server took."""
    with Store(tmp_path / "s.db") as store:
        project(store, ("ana", "slack"), ("bob", "slack"))
        ana, bob = store.due(NOW)
        made = marks.Marks(store, threading.Lock(), lambda: NOW)
        written = store.mark_many

        def away(*args: Any) -> set[int]:
            raise StateAway("s.db: the server is still unreachable")

        monkeypatch.setattr(store, "mark_many", away)
        with pytest.raises(StateAway):  # ana's first part: its claim never committed
            made.claim(ana.id, 1, (1,), kept=(0, ()))
        assert made.parts == {}
        monkeypatch.setattr(store, "mark_many", written)
        made.claim(bob.id, 1, (1,), kept=(0, ()))  # bob's first part claimed, then posted
        made.claim(bob.id, 2, (2,), kept=(1, ()))  # the second's: the first confirmed
        monkeypatch.setattr(store, "mark_many", away)
        with pytest.raises(StateAway):  # the third's claim fails: the second's answer is news
            made.claim(bob.id, 3, (3,), kept=(2, ()))
        assert made.parts == {bob.id: (2, ())}


def full(store: Store) -> None:
    """No page more for the SQLite file: each commit that grows it fails, "the disk is full"."""
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_commit_that_succeeds_clears_the_failure_of_the_one_before(tmp_path: Path) -> None:
    """Marks.failing, once set, held back every later row of the pass, though the marks had
    been written since."""
    with Store(tmp_path / "s.db") as store:
        project(store, ("ana", "took"), ("bob", "took"))
        ana, _ = store.due(NOW)
        made = marks.Marks(store, threading.Lock(), lambda: NOW)
        full(store)
        made.mark_sent(ana.id, "x" * 20000, NOW)  # a receipt the file has no room for
        with pytest.raises(StateError, match="the disk is full"):
            made.flush()
        assert made.failing is not None  # a send now could not be recorded: bob waits
        store.db.execute("PRAGMA max_page_count = 1073741823")  # room again
        made.flush()
        assert made.failing is None  # bob may go
        assert store.outbox_counts(NOW) == {"pending": 1, "sent": 1}


def test_marks_a_full_disk_refuses_name_who_gets_a_message_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """ops20 F2: "this process records them before it sends again", said by a `digest run` that
    ended on the next line, naming none of the 6 deliveries: 5 e-mails then went out twice."""
    monkeypatch.setattr(marks, "SETTLE_SECONDS", 1.0)  # the disk stays full past the wait
    Took.detail = "y" * 20000  # each sent mark grows the file
    try:
        with Store(tmp_path / "s.db") as store:
            rows = [("ana", "email"), ("cy", "email"), ("bob", "slack"), ("dee", "matrix")]
            settings = project(store, *rows)
            Took.during.append(lambda: full(store))
            registry = {"email": Took, "slack": TookOnce, "matrix": Took}
            with pytest.raises(StateError, match="the disk is full"):
                outbox.deliver(store, settings, NOW, channels=registry)
    finally:
        Took.detail = "taken"
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(said) == 1 and "this process records them before it sends again" not in said[0]
    assert "3 deliveries the servers took are not recorded" in said[0]
    assert "after this process ends (`digest run`, `digest retry`)" in said[0]
    assert said[0].endswith(
        "sends these a second time: ana/email, cy/email; none of the others twice: bob/slack"
    )
    assert Took.calls == ["ana", "cy", "bob"]  # bob's mark, committed at once, met the full disk


def test_a_pass_goes_on_once_its_full_disk_has_room_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """reg33 O1: the disk under an SQLite state full mid-pass and freed a few seconds later; the
    marks were written once it was, yet the run ended "the disk is full", exit 2, with the
    held-back deliveries unsent. It waits for room as for a server away, and sends them."""
    Took.detail = "y" * 20000  # each sent mark grows the file
    try:
        with Store(tmp_path / "s.db") as store:
            settings = project(store, *((f"s{n}", "took") for n in range(4)))

            def room_later() -> None:
                full(store)
                threading.Timer(
                    2.0, lambda: store.db.execute("PRAGMA max_page_count = 1073741823")
                ).start()

            Took.during.append(room_later)
            caplog.set_level(logging.INFO, "digest.outbox")
            outcome = outbox.deliver(store, settings, NOW, channels={"took": Took})
            assert [line.split(":")[0] for line in outcome.sent] == [f"s{n}/took" for n in range(4)]
            assert store.outbox_counts(NOW) == {"sent": 4}
            assert Took.calls == ["s0", "s1", "s2", "s3"]  # each once
    finally:
        Took.detail = "taken"
    assert "sent marks wait for the state database" in caplog.text
    assert "the disk is full" in caplog.text  # said while it waited


def test_the_deliveries_named_unrecorded_say_each_channel_once_with_its_count(
    tmp_path: Path,
) -> None:
    """ops21 F3: two periods' digests of one channel, neither recorded, had been named
    "s10/email, s10/email"."""
    with Store(tmp_path / "s.db") as store:
        made = marks.Marks(store, threading.Lock(), lambda: NOW)
        made.labels = {
            1: ("s10/email", "email"),
            2: ("s10/email", "email"),
            3: ("s9/email", "email"),
        }
        made.labels[4] = ("s1/slack", "slack")
        said = made.unrecorded([1, 2, 3, 4], StateError("s.db: gone"))
    assert said.endswith(
        "sends these a second time: s10/email (x2), s9/email; none of the others twice: s1/slack"
    )
