"""The outbox's delivery loop across destinations: concurrent but bounded, in order and paced per
destination, rate limits waited out within the run or left to a later one, split messages
resumed where they stopped, and `[delivery]` settings obeyed; with the real Slack channel, each
webhook's pace and Retry-After seen from the server while many are served at once."""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

import pytest
from channel_servers import SlackWebhook
from sample_digests import message, paper

from digest import marks, outbox
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
    Subscriber,
)
from digest.state import Store, stamp

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)


class Probe:
    """A test channel: options name its destination and what it should do; it records calls."""

    kind = "probe"
    lock = threading.Lock()
    calls: ClassVar[list[tuple[str, int]]] = []  # (destination, parts_sent at the call)
    busy: ClassVar[dict[str, int]] = defaultdict(int)
    peak: ClassVar[dict[str, int]] = defaultdict(int)  # most sends in flight: per destination, "*"
    barrier: ClassVar[threading.Barrier | None] = None
    script: ClassVar[dict[str, list[Any]]] = defaultdict(list)  # per destination: raise first

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.destination = str(config.options["to"])
        self.interval = float(config.options.get("interval", 0))

    @classmethod
    def reset(cls, barrier: int = 0) -> None:
        cls.calls = []
        cls.script.clear()
        cls.busy.clear()
        cls.peak.clear()
        cls.barrier = threading.Barrier(barrier, timeout=20) if barrier else None

    def send(self, delivery: Delivery) -> Receipt:
        with self.lock:
            self.calls.append((self.destination, delivery.parts_sent))
            for key in (self.destination, "*"):
                self.busy[key] += 1
                self.peak[key] = max(self.peak[key], self.busy[key])
            todo = self.script[self.destination]
            action = todo.pop(0) if todo else None
        try:
            if self.barrier is not None:
                self.barrier.wait()  # only sends that run at the same time get past this
            delivery.pace()
            if callable(action):
                action(delivery)
            elif action is not None:
                raise action
            return Receipt(self.kind, f"to {self.destination}")
        finally:
            with self.lock:
                for key in (self.destination, "*"):
                    self.busy[key] -= 1


def setup(
    tmp_path: Path, destinations: list[str], delivery: dict[str, Any] | None = None, **opts: Any
) -> tuple[Settings, Store]:
    """One subscriber per destination entry (repeats share a destination), one row each."""
    subs = tuple(
        Subscriber(f"s{i}", Profile("x"), (ChannelConfig("probe", "probe", {"to": d, **opts}),))
        for i, d in enumerate(destinations)
    )
    settings = Settings("t.toml", (), subs, delivery=delivery or {})
    store = Store(tmp_path / "state.db")
    for sub in subs:
        digest = Digest(sub.name, "P1", date(2026, 11, 30), (Scored(Paper("p", "T", "A"), 1),), NOW)
        store.record_digest(digest, 1, [("probe", "probe", Message("s", "t", "h"))])
    Probe.reset()
    return settings, store


def deliver(store: Store, settings: Settings, **kwargs: Any) -> outbox.Outcome:
    return outbox.deliver(
        store, settings, kwargs.pop("now", NOW), channels={"probe": Probe}, **kwargs
    )


def test_different_destinations_are_served_at_the_same_time(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["a", "b", "c"])
    Probe.reset(barrier=3)  # one at a time, the barrier would break and every send fail
    result = deliver(store, settings)
    assert len(result.sent) == 3 and not result.retrying


def test_no_more_destinations_at_once_than_the_concurrency(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["a", "b", "c", "d"], delivery={"concurrency": 2})
    Probe.reset(barrier=2)  # pairs meet; a third send in flight would show in the peak
    result = deliver(store, settings)
    assert len(result.sent) == 4 and Probe.peak["*"] == 2


def test_one_destinations_rows_go_one_after_another_in_order(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["same", "same", "same", "other"])
    result = deliver(store, settings)
    assert len(result.sent) == 4 and Probe.peak["same"] == 1
    assert [row.subscriber for row in store.outbox("sent")] == ["s0", "s1", "s2", "s3"]


def test_messages_to_one_destination_keep_its_interval(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["hook", "hook", "hook"], interval=5)
    slept: list[float] = []
    deliver(store, settings, sleep=slept.append)
    assert len(slept) == 2 and all(4.5 < s <= 5 for s in slept)  # none before the first


def test_a_short_retry_after_is_waited_out_within_the_run(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["hook"])
    Probe.script["hook"].append(DeliveryError("rate limited", retryable=True, retry_after=3))
    slept: list[float] = []
    result = deliver(store, settings, sleep=slept.append)
    assert slept == [3] and len(result.sent) == 1
    assert store.outbox()[0].attempts == 1  # waiting as asked is not a failed attempt


def test_a_long_retry_after_leaves_the_destination_to_a_later_run(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["hook", "hook", "other"], delivery={"max_wait": 60})
    Probe.script["hook"].append(DeliveryError("rate limited", retryable=True, retry_after=600))
    slept: list[float] = []
    result = deliver(store, settings, sleep=slept.append, rand=lambda: 0.5)
    assert slept == [] and result.sent == ["s2/probe: to other"]
    first, second, _ = store.outbox()
    assert first.attempts == 1 and first.next_try_at is not None
    assert first.next_try_at >= stamp(NOW + timedelta(seconds=600))
    assert second.attempts == 0 and second.status == "pending"  # not even tried
    assert sorted(c[0] for c in Probe.calls) == ["hook", "other"]
    later = deliver(store, settings, now=NOW + timedelta(minutes=11))
    assert len(later.sent) == 2


def test_no_wait_within_a_run_comes_near_the_lease_whatever_max_wait_says(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["hook"], delivery={"max_wait": 3600})
    wait = outbox.LEASE.total_seconds() * 0.6  # the row could be taken over while sleeping
    Probe.script["hook"].append(DeliveryError("rate limited", retryable=True, retry_after=wait))
    slept: list[float] = []
    result = deliver(store, settings, sleep=slept.append, rand=lambda: 0.5)
    assert slept == [] and len(result.retrying) == 1  # left for a later run instead
    assert store.outbox()[0].next_try_at >= stamp(NOW + timedelta(seconds=wait))


def test_a_split_message_resumes_at_the_first_part_not_sent(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["chat"])

    def two_parts_then_fail(delivery: Delivery) -> None:
        delivery.progress(1)
        delivery.progress(2)
        raise DeliveryError("connection reset", retryable=True)

    Probe.script["chat"].append(two_parts_then_fail)
    first = deliver(store, settings, rand=lambda: 0.5)
    assert len(first.retrying) == 1 and store.outbox()[0].parts_sent == 2
    Probe.script["chat"].append(DeliveryError("refused", retryable=False))  # dead this time
    deliver(store, settings, now=NOW + timedelta(minutes=5))
    assert Probe.calls == [("chat", 0), ("chat", 2)] and store.outbox_counts() == {"dead": 1}
    assert store.revive_dead() == 1 and store.outbox()[0].parts_sent == 2  # kept on retry


class AtMostOnce(Probe):
    at_most_once = True  # Slack's way: each part claimed before its post


def test_a_claim_the_database_cannot_take_keeps_the_confirmation_it_carried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL away while a Slack digest was posting: part 2's confirmation rode on part 3's
    claim, which failed, so the receipt called part 2 "may be missing"; and the outage counted
    as a failed attempt of the delivery."""
    from digest.state.engine import StateAway

    settings, store = setup(tmp_path, ["chat"])
    written, calls = store.mark_many, [0]

    def away_once(*args: Any, **kwargs: Any) -> set[int]:
        calls[0] += 1
        if calls[0] == 3:  # part 3's claim
            raise StateAway("state: cannot connect (server closed the connection)")
        return written(*args, **kwargs)

    monkeypatch.setattr(store, "mark_many", away_once)
    Probe.script["chat"].append(lambda d: [d.progress(n) for n in (1, 2, 3)])
    outbox.deliver(store, settings, NOW, channels={"probe": AtMostOnce})
    # Held back, then claimed again as the database has it once it took a commit: resumed at
    # part 3, part 2 confirmed, and no failed attempt counted (1: the send).
    assert Probe.calls == [("chat", 0), ("chat", 2)]
    (row,) = store.outbox()
    assert (row.status, row.parts_sent, row.unconfirmed, row.attempts) == ("sent", 2, (), 1)


def test_max_attempts_comes_from_the_delivery_table(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["x"], delivery={"max_attempts": 2})
    Probe.script["x"] += [DeliveryError("down", retryable=True)] * 2
    assert len(deliver(store, settings, rand=lambda: 0.5).retrying) == 1
    result = deliver(store, settings, now=NOW + timedelta(hours=1))
    assert result.dead == ["s0/probe: down"] and store.outbox("dead")[0].attempts == 2


def test_a_crashing_channel_does_not_stop_the_others(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["a", "b"])
    Probe.script["a"].append(KeyError("bug"))
    result = deliver(store, settings, rand=lambda: 0.5)
    assert len(result.sent) == 1 and result.retrying[0].endswith("unexpected KeyError: 'bug'")


@pytest.mark.parametrize("concurrency", [1, 4])
def test_the_outcome_reads_the_same_whatever_the_concurrency(
    tmp_path: Path, concurrency: int
) -> None:
    settings, store = setup(tmp_path, ["c", "a", "b"], delivery={"concurrency": concurrency})
    result = deliver(store, settings)
    assert result.sent == ["s0/probe: to c", "s1/probe: to a", "s2/probe: to b"]


def test_a_run_interrupted_midway_keeps_every_sent_mark(tmp_path: Path) -> None:
    """Sent marks are committed a few at a time; an interrupted run still writes those it has."""
    settings, store = setup(tmp_path, [f"d{i}" for i in range(30)], delivery={"concurrency": 1})
    Probe.script["d25"].append(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        deliver(store, settings)
    assert [r.subscriber for r in store.outbox("sent")] == [f"s{i}" for i in range(25)]
    assert len(deliver(store, settings, now=NOW + timedelta(minutes=1)).sent) == 5


def test_a_sent_mark_is_committed_within_seconds_while_the_run_goes_on(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["quick", "slow"], delivery={"concurrency": 2})
    seen: list[bool] = []

    def wait_for_the_quick_mark(delivery: Delivery) -> None:
        with Store(tmp_path / "state.db") as other:  # another connection: committed rows only
            for _ in range(200):
                if [r.subscriber for r in other.outbox("sent")] == ["s0"]:
                    seen.append(True)
                    return
                time.sleep(0.05)

    Probe.script["slow"].append(wait_for_the_quick_mark)
    result = deliver(store, settings)
    assert len(result.sent) == 2 and seen == [True]  # written before the run ended


def test_sent_marks_the_database_refuses_for_a_while_wait_for_a_later_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the state past the busy timeout while the marks are committed in
    the background: the marks stay queued for a later commit, and no thread dies of it."""
    settings, store = setup(tmp_path, ["quick", "slow"], delivery={"concurrency": 2})
    store.close()
    store = Store(tmp_path / "state.db", timeout=0.1)
    monkeypatch.setattr(marks, "MARK_SECONDS", 0.2)
    died: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args.exc_value))
    holder = sqlite3.connect(tmp_path / "state.db", isolation_level=None, check_same_thread=False)

    def hold(delivery: Delivery) -> None:
        holder.execute("BEGIN IMMEDIATE")  # the quick row's mark meets this lock

    def release_later(delivery: Delivery) -> None:
        time.sleep(1.0)  # the background commit tries, and fails, a few times meanwhile
        holder.execute("ROLLBACK")

    Probe.script["quick"].append(hold)
    Probe.script["slow"].append(release_later)
    try:
        result = deliver(store, settings)
    finally:
        holder.close()
    assert died == [] and len(result.sent) == 2
    assert [r.subscriber for r in store.outbox("sent")] == ["s0", "s1"]


def test_once_the_marks_cannot_be_written_nothing_more_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk under the state: every send after it could not be recorded, so the next run
    sent it again; the other destinations' threads had gone on sending for seconds."""
    from digest.models import StateError

    settings, store = setup(tmp_path, [f"d{i}" for i in range(20)], delivery={"concurrency": 4})
    monkeypatch.setattr(marks, "MARK_BATCH", 1)  # each sent mark is a commit of its own
    written = store.mark_many
    calls = [0]

    def full_disk(*args: Any, **kwargs: Any) -> set[int]:
        calls[0] += 1
        if calls[0] > 2:
            raise StateError("state.db: the disk is full; nothing of this step was written")
        return written(*args, **kwargs)

    monkeypatch.setattr(store, "mark_many", full_disk)
    with pytest.raises(StateError, match="the disk is full"):
        deliver(store, settings)
    unrecorded = len(Probe.calls) - len(store.outbox("sent"))
    assert unrecorded <= 4  # after the failed commit, at most the one on the wire per thread
    monkeypatch.setattr(store, "mark_many", written)
    deliver(store, settings, now=NOW + timedelta(minutes=1))
    assert len(store.outbox("sent")) == 20
    # The marks the disk could not take, kept in the process: its next pass (a serve's) wrote
    # them before it sent anything, and sent nothing again; a serve had mailed them twice.
    assert len(Probe.calls) == 20


def test_a_row_paused_by_its_reader_while_the_pass_runs_is_not_sent(tmp_path: Path) -> None:
    """The pauses were looked at when a delivery pass began: a mail queued behind a slow relay
    went out after the reader's one-click unsubscribe was answered."""
    settings, store = setup(tmp_path, ["d0", "d1", "d2"], delivery={"concurrency": 1})

    def unsubscribe(delivery: Delivery) -> None:
        with Store(tmp_path / "state.db") as web:  # the web face, on its own connection
            web.web.pause("s1", ["probe"], NOW)

    Probe.script["d0"].append(unsubscribe)
    result = deliver(store, settings)
    assert [d for d, _ in Probe.calls] == ["d0", "d2"]
    assert [r.status for r in store.outbox()] == ["sent", "paused", "sent"]
    assert len(result.sent) == 2


# The real Slack channel against the Slack stand-in: pace and Retry-After seen from the server.


class TimedSlack(SlackWebhook):
    """The Slack stand-in, also noting per webhook when each answer was given, and its
    Retry-After."""

    def __init__(self, **kwargs: Any) -> None:
        self.times: list[tuple[str, int, float, str]] = []  # (path, status, when, Retry-After)
        super().__init__(**kwargs)

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, dict[str, str]] | None:
        answer = super().handle(method, path, body, headers)
        if answer is not None:
            with self.lock:
                self.times.append(
                    (path, answer[0], time.monotonic(), answer[2].get("Retry-After", ""))
                )
        return answer

    def answers_to(self, url: str) -> list[tuple[int, float, str]]:
        path = "/" + url.split("/", 3)[3]
        return [(status, when, wait) for p, status, when, wait in self.times if p == path]


def slack_setup(
    tmp_path: Path, hooks: list[str], papers: int = 1, **delivery: Any
) -> tuple[Settings, Store]:
    """One subscriber per webhook entry (repeats share a webhook: a team channel)."""
    subs = tuple(
        Subscriber(f"s{i}", Profile("x"), (ChannelConfig("slack", "slack", {"webhook": url}),))
        for i, url in enumerate(hooks)
    )
    settings = Settings("t.toml", (), subs, secrets=frozenset(hooks), delivery=delivery)
    store = Store(tmp_path / "state.db")
    for sub in subs:
        digest = Digest(sub.name, "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        msg = message(papers, subscriber=sub.name)
        store.record_digest(digest, 1, [("slack", "slack", msg)])
    return settings, store


def test_each_webhook_keeps_its_pace_while_many_are_served_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SlackChannel, "interval", 0.5)  # Slack's second, shortened for the test
    server = TimedSlack(rate=2, burst=1)  # refuses (429) two posts to one webhook within 0.5 s
    try:
        shared = [server.url(f"team{i}") for i in range(3)]
        own = [server.url(f"own{i}") for i in range(6)]
        settings, store = slack_setup(tmp_path, shared * 3 + own, concurrency=8)
        result = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert len(result.sent) == 15 and 429 not in server.answers
    for url in shared:
        times = [when for status, when, _ in server.answers_to(url)]
        assert len(times) == 3
        assert all(b - a >= 0.5 for a, b in zip(times, times[1:], strict=False))
    # Served at once: every team channel had its first message before any had its last.
    firsts = [server.answers_to(url)[0][1] for url in shared]
    lasts = [server.answers_to(url)[-1][1] for url in shared]
    assert max(firsts) < min(lasts)


def test_a_429_is_obeyed_no_post_comes_before_its_retry_after(tmp_path: Path) -> None:
    server = TimedSlack(rate=1 / 3, burst=1)  # one message per 3 s: the second part is refused
    try:
        url = server.url()
        settings, store = slack_setup(tmp_path, [url], papers=28)  # two Slack messages
        result = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert len(result.sent) == 1 and store.outbox()[0].parts_sent == 2
    answers = server.answers_to(url)
    assert [status for status, _, _ in answers] == [200, 429, 200]
    (_, refused_at, wait), (_, posted_at, _) = answers[1], answers[2]
    assert float(wait) >= 1 and posted_at - refused_at >= float(wait)


# A wish or a fault of one delivery never ends the run.


@pytest.mark.parametrize("wish", [99999999999999.0, math.inf, 1e300])
def test_a_retry_after_of_ages_waits_the_longest_backoff_and_the_run_goes_on(
    tmp_path: Path, wish: float
) -> None:
    settings, store = setup(tmp_path, ["hook", "other"], delivery={"concurrency": 1})
    Probe.script["hook"].append(DeliveryError("rate limited", retryable=True, retry_after=wish))
    slept: list[float] = []
    result = deliver(store, settings, sleep=slept.append, rand=lambda: 0.5)
    assert slept == [] and result.sent == ["s1/probe: to other"]
    assert result.retrying == ["s0/probe: rate limited"]
    first = store.outbox()[0]
    assert first.status == "pending" and first.attempts == 1  # the attempt counts
    ceiling = NOW + timedelta(seconds=outbox.MAX_BACKOFF)
    assert stamp(ceiling) <= str(first.next_try_at) <= stamp(ceiling + timedelta(minutes=1))
    assert outbox.backoff(1, wish, lambda: 0.5) == outbox.MAX_BACKOFF


def test_a_retry_after_that_is_no_number_gets_the_usual_backoff(tmp_path: Path) -> None:
    settings, store = setup(tmp_path, ["hook"])
    nan = DeliveryError("rate limited", retryable=True, retry_after=math.nan)
    Probe.script["hook"].append(nan)
    result = deliver(store, settings, rand=lambda: 0.5)
    assert len(result.retrying) == 1
    assert store.outbox()[0].next_try_at == stamp(NOW + timedelta(seconds=60))


def test_a_fault_in_one_deliverys_bookkeeping_does_not_end_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, store = setup(tmp_path, ["hook", "other"], delivery={"concurrency": 1})
    Probe.script["hook"].append(DeliveryError("busy", retryable=True))
    real, faults = outbox.backoff, [OverflowError("date value out of range")]

    def flawed(*args: Any) -> float:
        if faults:
            raise faults.pop()
        return real(*args)

    monkeypatch.setattr(outbox, "backoff", flawed)
    result = deliver(store, settings, rand=lambda: 0.5)
    assert result.sent == ["s1/probe: to other"]
    assert result.retrying == ["s0/probe: unexpected OverflowError: date value out of range"]
    first = store.outbox()[0]
    assert first.status == "pending" and first.attempts == 1


def test_a_row_on_the_wire_keeps_its_lease_however_long_the_send(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(marks, "RENEW_SECONDS", 0.1)
    monkeypatch.setattr(marks, "MARK_SECONDS", 0.05)
    settings, store = setup(tmp_path, ["slow"])
    Probe.script["slow"].append(lambda delivery: time.sleep(0.8))  # an SMTP end of DATA, say
    renewed: list[int] = []
    real = store.renew

    def renew(row_id: int, now: datetime) -> bool:
        renewed.append(row_id)
        return real(row_id, now)

    monkeypatch.setattr(store, "renew", renew)
    result = deliver(store, settings)
    assert len(result.sent) == 1
    assert len(renewed) >= 4  # before the send, then while it lasted
