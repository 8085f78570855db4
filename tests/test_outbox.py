"""The delivery loop: due rows are sent; failures wait out a backoff on the run's clock; a row
that keeps failing, or fails for good, is dead until retried; one channel never blocks another.
A stop (SIGTERM) ends the loop's waits at once and begins no post; a state fault is no attempt."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from channel_servers import SlackWebhook
from sample_digests import INTERESTS, message, paper, papers_jsonl

from digest import outbox
from digest.channels.slack import SlackChannel
from digest.models import (
    ChannelConfig,
    Delivery,
    DeliveryError,
    Digest,
    Message,
    Paper,
    Profile,
    Receipt,
    Scored,
    Settings,
    StateError,
    Subscriber,
    deadline,
)
from digest.state import Store
from digest.state.deliveries import OutboxRow
from digest.state.engine import StateBusy

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)
MESSAGE = Message("Digest", "text", "<p>html</p>")


class Refusing:
    """A channel whose server answers with a permanent error, as a 404 webhook does."""

    kind = "refusing"

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.config = config

    def send(self, delivery: Delivery) -> Receipt:
        raise DeliveryError(f"refused: token {self.config.options['token']}", retryable=False)


def setup(tmp_path: Path, *channels: ChannelConfig) -> tuple[Settings, Store]:
    sub = Subscriber("ana", Profile(interests="x"), channels)
    settings = Settings("t.toml", (), (sub,), secrets=frozenset({"s3cret-token"}))
    store = Store(tmp_path / "s.db")
    digest = Digest("ana", "P1", date(2026, 11, 30), (Scored(Paper("p1", "T", "A"), 0.5),), NOW)
    store.record_digest(digest, 1, [(c.name, c.kind, MESSAGE) for c in channels])
    return settings, store


def test_a_due_row_is_sent_and_recorded(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ChannelConfig("file", "file", {"dir": str(tmp_path / "o")}))
    result = outbox.deliver(store, settings, NOW)
    assert len(result.sent) == 1 and not result.retrying and not result.dead
    assert (tmp_path / "o" / "2026-11-30" / "ana.eml").is_file()
    assert outbox.deliver(store, settings, NOW).sent == []  # nothing is sent twice


def message_ids(tmp_path: Path, clocks: list[datetime]) -> list[str]:
    """The Message-ID of one digest of ana's made at each clock, each in a state of its own."""
    ids = []
    for n, made in enumerate(clocks):
        folder = tmp_path / f"o{n}"
        channel = ChannelConfig("file", "file", {"dir": str(folder)})
        settings = Settings("t.toml", (), (Subscriber("ana", Profile("x"), (channel,)),))
        with Store(tmp_path / f"s{n}.db") as store:
            digest = Digest("ana", "P1", date(2026, 11, 30), (), made)
            store.record_digest(digest, 1, [("file", "file", MESSAGE)])
            outbox.deliver(store, settings, made)
        eml = (folder / "2026-11-30" / "ana.eml").read_text(encoding="utf-8")
        ids += re.findall(r"^Message-ID: (\S+)", eml, re.MULTILINE)
    return ids


def test_a_state_made_anew_within_the_period_gives_its_digest_a_new_message_id(
    tmp_path: Path,
) -> None:
    # Row 1 of the same subscriber, period and channel had the same Message-ID in any state:
    # after `rm -rf state`, Gmail dropped the new digest as a copy, and Matrix gave the old
    # event back for its txnId.
    ids = message_ids(tmp_path, [NOW, NOW + timedelta(minutes=20)])
    assert len(ids) == 2 and ids[0] != ids[1]


def test_two_states_replayed_at_one_clock_give_their_digests_two_message_ids(
    tmp_path: Path,
) -> None:
    # A replay (`--now`) made the row at the same instant in both states: the row's random token
    # tells them apart.
    ids = message_ids(tmp_path, [NOW, NOW])
    assert len(ids) == 2 and ids[0] != ids[1]


def delivery_of(row: OutboxRow, settings: Settings) -> Delivery:
    """The delivery the outbox hands its channel for this row of ana's."""
    channel = settings.subscribers[0].channels[0]
    return Delivery(row.id, "ana", "P1", row.day, channel, MESSAGE, made=row.created_at,
                    token=row.token)  # fmt: skip


def test_a_row_keeps_its_key_across_resends_and_an_older_row_its_former_key(
    tmp_path: Path,
) -> None:
    settings, store = setup(tmp_path, ChannelConfig("file", "file", {"dir": str(tmp_path / "o")}))
    (row,) = store.due(NOW)
    assert len(row.token) == 16 and store.message(row.id) is not None
    delivery = delivery_of(row, settings)
    assert delivery.key == dataclasses.replace(delivery, attempts=3, parts_sent=1).key
    # A row made before tokens existed (token ''): the key it was first sent under.
    ident = f"ana\x1fP1\x1ffile\x1f{row.created_at}".encode()
    older = dataclasses.replace(delivery, token="")
    assert older.key == f"digest-{row.id}-{hashlib.sha256(ident).hexdigest()[:16]}"
    assert older.key != delivery.key


def test_a_row_of_a_state_older_than_instant_keys_keeps_the_key_it_was_first_sent_under(
    tmp_path: Path,
) -> None:
    # A row made by a digest of schema 10 and sent (or half sent) under its first key: after the
    # upgrade it had a new Message-ID, a second mail nobody could tell was the same.
    import sqlite3

    from digest.state.schema import KEYED_BY_INSTANT

    settings, store = setup(tmp_path, ChannelConfig("file", "file", {"dir": str(tmp_path / "o")}))
    store.close()
    with sqlite3.connect(tmp_path / "s.db") as db:
        db.executescript(  # as schema 10 left it
            "DROP TABLE feed_validators; ALTER TABLE outbox DROP COLUMN token;"
            f" PRAGMA user_version = {KEYED_BY_INSTANT - 1};"
        )
    db.close()
    with Store(tmp_path / "s.db") as store:
        (row,) = store.due(NOW)
        assert row.token == "-"
    first = b"ana\x1fP1\x1ffile"
    delivery = delivery_of(row, settings)
    assert delivery.key == f"digest-{row.id}-{hashlib.sha256(first).hexdigest()[:16]}"


def test_a_failure_waits_for_the_backoff_on_the_runs_clock(tmp_path: Path) -> None:
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where a folder should be")
    settings, store = setup(tmp_path, ChannelConfig("file", "file", {"dir": str(blocker)}))
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert len(first.retrying) == 1 and store.outbox_counts() == {"pending": 1}
    # 60 s for the first failure (jitter 0.5 keeps it exact): not due a second earlier.
    assert outbox.deliver(store, settings, NOW + timedelta(seconds=59)).retrying == []
    blocker.unlink()
    later = outbox.deliver(store, settings, NOW + timedelta(seconds=60))
    assert len(later.sent) == 1 and store.outbox_counts() == {"sent": 1}


def test_a_row_that_keeps_failing_dies_after_the_last_attempt(tmp_path: Path) -> None:
    blocker = tmp_path / "blocked"
    blocker.write_text("x")
    settings, store = setup(tmp_path, ChannelConfig("file", "file", {"dir": str(blocker)}))
    clock = NOW
    for _ in range(outbox.MAX_ATTEMPTS):
        outbox.deliver(store, settings, clock)
        clock += timedelta(days=1)
    (row,) = store.outbox()
    assert (row.status, row.attempts) == ("dead", outbox.MAX_ATTEMPTS)
    assert "cannot write" in row.last_error


def test_a_permanent_error_is_dead_at_once_and_secrets_never_stored(tmp_path: Path) -> None:
    refusing = ChannelConfig("refusing", "refusing", {"token": "s3cret-token"})
    settings, store = setup(tmp_path, refusing)
    result = outbox.deliver(store, settings, NOW, channels={"refusing": Refusing})
    assert result.dead == ["ana/refusing: refused: token [redacted]"]
    (row,) = store.outbox()
    assert row.status == "dead" and "s3cret" not in row.last_error


class Echoing(Refusing):
    """A server whose error quotes the request's token after a long preamble."""

    def send(self, delivery: Delivery) -> Receipt:
        said = "x" * 580 + f" Bearer {self.config.options['token']} " + "y" * 3000
        raise DeliveryError(said, retryable=False)


def test_a_long_error_is_cut_only_after_its_secrets_are_blotted(tmp_path: Path) -> None:
    echoing = ChannelConfig("echoing", "echoing", {"token": "s3cret-token"})
    settings, store = setup(tmp_path, echoing)
    result = outbox.deliver(store, settings, NOW, channels={"echoing": Echoing})
    (row,) = store.outbox()
    assert "s3c" not in row.last_error and "s3c" not in result.dead[0]
    assert "Bearer [redacted] " in row.last_error and len(row.last_error) <= 600


def test_one_failing_channel_does_not_stop_the_others(tmp_path: Path) -> None:
    good = ChannelConfig("file", "file", {"dir": str(tmp_path / "o")})
    bad = ChannelConfig("refusing", "refusing", {"token": "t"})
    settings, store = setup(tmp_path, bad, good)
    from digest.channels.file import FileChannel

    result = outbox.deliver(
        store, settings, NOW, channels={"refusing": Refusing, "file": FileChannel}
    )
    assert len(result.dead) == 1 and len(result.sent) == 1


def test_a_channel_removed_from_the_config_is_dead_with_that_reason(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ChannelConfig("file", "file", {"dir": "o"}))
    emptied = Settings("t.toml", (), ())
    result = outbox.deliver(store, emptied, NOW)
    assert result.dead == ["ana/file: the channel is no longer in the config"]


def test_a_worker_whose_config_lacks_a_channel_leaves_its_rows_to_the_others_for_a_day(
    tmp_path: Path, postgres_url: str
) -> None:
    """A worker not yet restarted on the new config made the new channel's rows dead at once."""
    channel = ChannelConfig("file", "file", {"dir": str(tmp_path / "o")})
    sub = Subscriber("ana", Profile(interests="x"), (channel,))
    settings = Settings("t.toml", (), (sub,))
    with Store(postgres_url, worker="old") as old, Store(postgres_url, worker="new") as new:
        digest = Digest("ana", "P1", date(2026, 11, 30), (Scored(Paper("p1", "T", "A"), 0.5),), NOW)
        new.record_digest(digest, 1, [("file", "file", MESSAGE)])
        result = outbox.deliver(old, Settings("t.toml", (), ()), NOW)
        assert (result.dead, result.sent) == ([], []) and old.outbox_counts(NOW) == {"pending": 1}
        assert outbox.deliver(new, settings, NOW).sent  # the new config's worker sends it
        items = (Scored(Paper("p2", "T", "A"), 0.5),)
        again = dataclasses.replace(digest, period="P2", items=items)
        assert isinstance(new.record_digest(again, 1, [("file", "file", MESSAGE)]), int)
        later = outbox.deliver(old, Settings("t.toml", (), ()), NOW + timedelta(days=2))
        assert later.dead == ["ana/file: the channel is no longer in the config"]


@pytest.mark.parametrize(
    ("attempts", "low", "high"), [(1, 48, 72), (3, 192, 288), (20, 17280, 25920)]
)
def test_backoff_doubles_with_jitter_up_to_a_cap(attempts: int, low: float, high: float) -> None:
    assert outbox.backoff(attempts, None, lambda: 0.0) == pytest.approx(low)
    assert outbox.backoff(attempts, None, lambda: 1.0) == pytest.approx(high)
    assert outbox.backoff(1, 3600, lambda: 0.5) == 3600  # the server's Retry-After wins when longer


SENT: list[str] = []


class Quick:
    """A channel to a destination of its own (as an e-mail to one recipient is), 20 ms a send."""

    kind, interval = "quick", 0.0

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.destination = f"quick:{config.options['to']}"

    def send(self, delivery: Delivery) -> Receipt:
        time.sleep(0.02)
        SENT.append(self.destination)
        return Receipt(self.kind, "ok")


class Paced(Quick):
    """A webhook many readers share, one post a second apart (as Slack's is)."""

    kind, interval = "paced", 1.0

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.destination = "paced:hook"


def reader(name: str, channel: ChannelConfig) -> Subscriber:
    return Subscriber(name, Profile(interests="x"), (channel,))


def recorded(tmp_path: Path, subs: list[Subscriber]) -> tuple[Settings, Store]:
    """Each subscriber's digest of one paper, due in the outbox."""
    store = Store(tmp_path / "s.db")
    for sub in subs:
        digest = Digest(sub.name, "P1", NOW.date(), (Scored(Paper("p1", "T", "A"), 0.5),), NOW)
        store.record_digest(digest, 1, [(c.name, c.kind, MESSAGE) for c in sub.channels])
    return Settings("t.toml", (), tuple(subs)), store


def test_a_paced_destination_is_not_queued_behind_many_quick_ones(tmp_path: Path) -> None:
    """Listed after 400 e-mails, a Slack webhook's first post came 97 s into the run."""
    SENT.clear()
    subs = [reader(f"q{i:02d}", ChannelConfig("quick", "quick", {"to": i})) for i in range(60)] + [
        reader(f"s{i}", ChannelConfig("paced", "paced", {})) for i in range(3)
    ]
    settings, store = recorded(tmp_path, subs)
    result = outbox.deliver(
        store, settings, NOW, channels={"quick": Quick, "paced": Paced}, sleep=lambda s: None
    )
    assert len(result.sent) == 63
    assert SENT.index("paced:hook") < 16  # among the first a thread takes, not after the rest


def test_a_stop_leaves_the_rest_pending_after_the_message_on_the_wire(tmp_path: Path) -> None:
    """serve's SIGTERM: a webhook's 200 readers, a second apart, had held the stop 3 minutes."""
    stopping: list[bool] = []

    class Stopping(Paced):
        def send(self, delivery: Delivery) -> Receipt:
            stopping.append(True)  # the stop comes while the first message is on the wire
            return super().send(delivery)

    subs = [reader(f"s{i}", ChannelConfig("paced", "paced", {})) for i in range(5)]
    settings, store = recorded(tmp_path, subs)
    result = outbox.deliver(
        store, settings, NOW, channels={"paced": Stopping}, stop=lambda: bool(stopping)
    )
    assert len(result.sent) == 1 and store.outbox_counts() == {"sent": 1, "pending": 4}


# A stop (SIGTERM) while the outbox waits: a rate limit's Retry-After, a webhook's pace.


@contextmanager
def sigterm_once(seen: Callable[[], bool]) -> Iterator[threading.Event]:
    """What `digest run`'s SIGTERM handler does (deadline.stopper), a moment after seen() holds;
    the event is the run's stop."""
    stopped = threading.Event()
    handler = deadline.stopper(stopped)

    def later() -> None:
        for _ in range(400):
            if seen():
                break
            time.sleep(0.05)
        time.sleep(0.3)  # into the wait
        handler(signal.SIGTERM, None)

    thread = threading.Thread(target=later, daemon=True)
    thread.start()
    try:
        yield stopped
    finally:
        thread.join()
        for _ in range(100):  # the handler interrupts from a thread of its own
            if deadline.interrupted():
                break
            time.sleep(0.01)
        deadline.resume()


def slack_rows(
    tmp_path: Path, server: SlackWebhook, readers: tuple[str, ...] = ("ana",), papers: int = 1
) -> tuple[Settings, Store]:
    """Each reader's digest of `papers` papers, due to one webhook of the Slack stand-in."""
    url = server.url()
    hook = ChannelConfig("slack", "slack", {"webhook": url})
    subs = tuple(Subscriber(name, Profile("x"), (hook,)) for name in readers)
    store = Store(tmp_path / "s.db")
    for sub in subs:
        digest = Digest(sub.name, "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [("slack", "slack", message(papers, sub.name))])
    return Settings("t.toml", (), subs, secrets=frozenset({url})), store


def test_a_sigterm_ends_a_rate_limit_wait_at_once_and_nothing_more_is_posted(
    tmp_path: Path,
) -> None:
    """Slack's 429 asking a minute (max_wait's default; up to 5 are allowed) held a SIGTERMed
    run to the wait's end, past Docker's 10 s before its SIGKILL, then posted again."""
    server = SlackWebhook()
    server.script = [(429, "rate_limited", {"Retry-After": "60"})] * 3
    settings, store = slack_rows(tmp_path, server)
    try:
        began = time.monotonic()
        with sigterm_once(lambda: bool(server.answers)) as stopped:
            result = outbox.deliver(store, settings, NOW, stop=stopped.is_set)
        assert time.monotonic() - began < 20 and server.answers == [429]
        assert (result.sent, result.retrying, result.dead) == ([], [], [])
        (row,) = store.outbox()  # as it was: the server's pace is no failed attempt
        assert (row.status, row.attempts, row.parts_sent, row.last_error) == ("pending", 0, 0, "")
        server.script.clear()
        assert len(outbox.deliver(store, settings, NOW).sent) == 1  # the next run's
    finally:
        server.stop()


def test_a_sigterm_ends_a_webhooks_pace_and_the_next_reader_waits_for_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readers who share a webhook are posted a pace apart: a stop during that wait had posted
    the next reader's digest when the wait was over."""
    monkeypatch.setattr(SlackChannel, "interval", 60.0)  # a pace long enough to see it cut
    server = SlackWebhook()
    settings, store = slack_rows(tmp_path, server, readers=("ana", "ben"))
    try:
        began = time.monotonic()
        with sigterm_once(lambda: bool(server.accepted)) as stopped:
            result = outbox.deliver(store, settings, NOW, stop=stopped.is_set)
    finally:
        server.stop()
    assert time.monotonic() - began < 20 and len(server.accepted) == 1
    assert len(result.sent) == 1 and (result.retrying, result.dead) == ([], [])
    (ben,) = store.outbox("pending")
    assert (ben.subscriber, ben.attempts, ben.parts_sent) == ("ben", 0, 0)


def test_a_message_stopped_between_its_parts_goes_on_at_the_next_part_the_first_confirmed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The part Slack took before the stop is recorded as taken, not as "may be missing": the
    next run posts the rest alone, and its receipt says the message arrived whole."""
    monkeypatch.setattr(SlackChannel, "interval", 60.0)
    server = SlackWebhook(rate=100, burst=100)
    settings, store = slack_rows(tmp_path, server, papers=28)  # two Slack messages
    try:
        began = time.monotonic()
        with sigterm_once(lambda: bool(server.accepted)) as stopped:
            outbox.deliver(store, settings, NOW, stop=stopped.is_set)
        assert time.monotonic() - began < 20 and len(server.accepted) == 1
        (row,) = store.outbox()
        assert (row.status, row.parts_sent, row.unconfirmed, row.attempts) == ("pending", 1, (), 0)
        monkeypatch.setattr(SlackChannel, "interval", 0.0)
        result = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert len(server.accepted) == 2 and result.sent == ["ana/slack: 2 messages via webhook"]


def test_a_part_the_server_took_is_recorded_as_taken_before_the_pace_that_follows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Confirmed only by the next part's claim, a pace later, a part Slack took was "may be
    missing" after a crash (SIGKILL) within that second, and the row dead once the next answer
    was lost. Seen from another connection while the run waits out the pace."""
    monkeypatch.setattr(SlackChannel, "interval", 60.0)
    server = SlackWebhook(rate=100, burst=100)
    settings, store = slack_rows(tmp_path, server, papers=28)  # two Slack messages
    confirmed = threading.Event()

    def recorded() -> bool:
        if server.accepted:
            with Store(tmp_path / "s.db") as other:
                (row,) = other.outbox()
            if (row.parts_sent, row.unconfirmed) == (1, ()):
                confirmed.set()
        return confirmed.is_set()

    try:
        with sigterm_once(recorded) as stopped:
            outbox.deliver(store, settings, NOW, stop=stopped.is_set)
    finally:
        server.stop()
    assert confirmed.is_set() and len(server.accepted) == 1


def test_a_try_that_got_further_before_a_long_rate_limit_counts_no_attempt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big digest paced by the server's rate limit posts some parts each run: each run had
    counted a failed attempt, and the row went dead with its tail never posted. A try that
    posts nothing still counts."""
    monkeypatch.setattr(SlackChannel, "interval", 0.0)
    server = SlackWebhook(rate=100, burst=100)
    server.script = [(200, "ok"), (429, "rate_limited", {"Retry-After": "600"})]
    settings, store = slack_rows(tmp_path, server, papers=28)  # two Slack messages
    try:
        outbox.deliver(store, settings, NOW)
        (row,) = store.outbox()
        assert (row.status, row.parts_sent, row.attempts) == ("pending", 1, 0)
        server.script = [(429, "rate_limited", {"Retry-After": "600"})]
        outbox.deliver(store, settings, NOW + timedelta(hours=1))
        (row,) = store.outbox()
        assert (row.status, row.parts_sent, row.attempts) == ("pending", 1, 1)
    finally:
        server.stop()


def test_a_part_that_got_no_answer_is_a_failed_attempt_not_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A gateway's 504 leaves the part claimed (it is not posted again) but unconfirmed: counted
    as got-further, an outage spent every part of a digest at the first backoff's pace and the
    log read "attempt 0 failed"."""
    monkeypatch.setattr(SlackChannel, "interval", 0.0)
    server = SlackWebhook(rate=100, burst=100)
    server.script = [(504, "gateway timeout")] * 2
    settings, store = slack_rows(tmp_path, server, papers=28)  # two Slack messages
    try:
        with caplog.at_level(logging.WARNING, logger="digest"):
            outbox.deliver(store, settings, NOW)
        (row,) = store.outbox()
        assert (row.status, row.parts_sent, row.unconfirmed, row.attempts) == (
            "pending", 1, (1,), 1)  # fmt: skip
        assert "attempt 1 failed" in caplog.text and "attempt 0" not in caplog.text
        assert row.next_try_at is not None
        outbox.deliver(store, settings, datetime.fromisoformat(row.next_try_at))
        (row,) = store.outbox()
        assert (row.parts_sent, row.attempts) == (2, 2)
    finally:
        server.stop()


def test_digest_run_sigterm_during_a_rate_limit_exits_at_once_leaving_the_digest_pending(
    tmp_path: Path,
) -> None:
    """As an operator stops it (docker stop): the run exits 143 well inside the 10 s before
    SIGKILL, with no post after the SIGTERM."""
    server = SlackWebhook()
    server.script = [(429, "rate_limited", {"Retry-After": "60"})] * 3
    (tmp_path / "papers.jsonl").write_text(papers_jsonl(3), encoding="utf-8")
    (tmp_path / "digest.toml").write_text(
        f"""
[state]
path = "state.db"

[[sources]]
kind = "files"
path = "papers.jsonl"

[[subscribers]]
name = "ana"
interests = "{INTERESTS}"
schedule = "0 8 * * *"
timezone = "UTC"
min_score = 0.01

[[subscribers.channels]]
kind = "slack"
webhook = "{server.url()}"
""",
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "digest", "run", "--config", "digest.toml"]
    proc = subprocess.Popen([*command, "--now", NOW.isoformat()], cwd=tmp_path, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        for _ in range(1200):
            if server.answers:
                break
            time.sleep(0.05)
        time.sleep(1.0)  # into the wait
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=90)
    finally:
        proc.kill()
        server.stop()
    assert proc.returncode == 143 and time.monotonic() - began < 20, err
    assert server.answers == [429] and "Traceback" not in err
    with Store(tmp_path / "state.db") as store:
        (row,) = store.outbox()
    assert (row.status, row.attempts) == ("pending", 0)


# A state fault during a delivery is the state's, not the delivery's.


@pytest.mark.parametrize(
    "fault",
    [
        StateBusy("s.db: the state database stayed locked by another process for 30 s; try again"),
        StateError("s.db: cannot use the state database: the disk is full"),
    ],
)
def test_a_claim_the_state_cannot_write_ends_the_pass_and_counts_no_attempt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: Exception
) -> None:
    """Part 2's claim met a locked SQLite file: it had counted as a failed attempt of the
    delivery (eight of them make it dead)."""
    monkeypatch.setattr(SlackChannel, "interval", 0.0)
    server = SlackWebhook(rate=100, burst=100)
    settings, store = slack_rows(tmp_path, server, papers=28)  # two Slack messages
    written, calls = store.mark_many, [0]

    def refused_once(*args: Any, **kwargs: Any) -> set[int]:
        calls[0] += 1
        if calls[0] == 3:  # part 2's claim (the second: part 1 confirmed)
            raise fault
        return written(*args, **kwargs)

    monkeypatch.setattr(store, "mark_many", refused_once)
    try:
        with pytest.raises(type(fault)):
            outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    (row,) = store.outbox()
    assert len(server.accepted) == 1  # part 2, not claimed, was not posted
    assert (row.status, row.attempts, row.parts_sent, row.unconfirmed) == ("pending", 0, 1, ())


def test_a_pass_holds_a_channel_going_to_an_unsubscribed_address_whatever_its_name(
    tmp_path: Path,
) -> None:
    """`digest retry` held a reader's unsubscribe by the channel's name only: a row queued
    after it (a run cut short before its delivery pass) went to the address it had stopped."""
    from digest.state.pauses import addressed

    mail = ChannelConfig("email", "email-2", {"to": "Ana@Example.org"})
    store = Store(tmp_path / "s.db")
    store.web.pause("ana", [addressed("email", ["ana@example.org"])], NOW)
    settings, store = setup(tmp_path, mail)
    sent: list[str] = []

    class Recording(Refusing):
        kind = "email"

        def send(self, delivery: Delivery) -> Receipt:
            sent.append(delivery.subscriber)
            raise DeliveryError("not to be sent", retryable=False)

    outbox.deliver(store, settings, NOW, channels={"email": Recording})
    assert sent == [] and store.outbox()[0].status == "paused"
