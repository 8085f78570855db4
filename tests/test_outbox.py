"""The delivery loop: due rows are sent; failures wait out a backoff on the run's clock; a row
that keeps failing, or fails for good, is dead until retried; one channel never blocks another."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from digest import outbox
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
    Subscriber,
)
from digest.state import Store
from digest.state.deliveries import OutboxRow

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
