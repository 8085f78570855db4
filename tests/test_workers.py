"""Several workers on one PostgreSQL database: they migrate it once, store each paper once, make
each digest once, claim each outbox row once (a lease on the run's clock: a dead worker's rows
pass to another when it ends) and show up, each by name, in `digest status` and `digest health`.
A claim is a process's, not its name's: a second live process under one name never takes the
first's rows, a restarted one takes back a dead predecessor's at once. A SIGTERM ends a wait for
a lock a frozen worker holds. End to end: three `digest run` processes with real SMTP, Slack and
Matrix servers, one SIGKILLed mid-delivery; every digest arrives exactly once (Matrix, email),
at most once (Slack); and a `digest retry` under a sending worker's name sends nothing twice."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from channel_servers import SlackWebhook, StallingProxy
from homeserver import Homeserver, shared
from sample_digests import INTERESTS, message, paper, papers_jsonl
from support_postgres import lapse
from test_channels_e2e import channels, matrix_parts, parts, servers, write_config  # noqa: F401

from digest import outbox
from digest.channels.slack import SlackChannel
from digest.cli import main
from digest.models import (
    ChannelConfig,
    Digest,
    Message,
    Paper,
    Profile,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store
from digest.state.claims import holder, machine
from digest.state.deliveries import LEASE, LEASE_END
from digest.state.schema import SCHEMA

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
MESSAGE = Message("subject", "text", "<p>html</p>")


def together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """work(0..count-1) in threads released at one instant; their results in order."""
    start, results = threading.Barrier(count), [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return results


def test_workers_starting_together_on_an_empty_database_migrate_it_once(postgres_url: str) -> None:
    def open_store(i: int) -> int:
        with Store(postgres_url, worker=f"w{i}") as store:
            return store.db.version()

    assert set(together(4, open_store)) == {len(SCHEMA)}
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT count(*) FROM schema_version").fetchone() == (1,)


def test_papers_ingested_by_several_workers_are_stored_once(postgres_url: str) -> None:
    preprints = [Paper(f"2611.{n:05d}", f"Robust learning, study {n}", "x") for n in range(300)]
    # The same papers as another source knows them: by DOI, with the arXiv id as an alias.
    published = [
        Paper(f"10.1000/j.{n}", p.title, "y", aliases=(p.id,), venue="J. Robust")
        for n, p in enumerate(preprints)
    ]
    batches = [preprints, published, list(reversed(preprints)), published[::-1]]
    Store(postgres_url).close()

    def ingest(i: int) -> int:
        with Store(postgres_url, worker=f"w{i}") as store:
            return store.add_papers(batches[i], NOW)

    assert sum(together(4, ingest)) == 300
    with Store(postgres_url) as store:
        assert store.count_papers() == 300
        assert {p.venue for _, p in store.papers_after(0)} == {"J. Robust"}


def test_each_digest_is_made_once_when_workers_race(postgres_url: str) -> None:
    paper = Paper("2611.00001", "A paper", "x")
    with Store(postgres_url) as store:
        store.add_papers([paper], NOW)
    digest = Digest("ana", "P1", date(2026, 11, 30), (Scored(paper, 0.5),), NOW)

    def make(i: int) -> int | str:
        with Store(postgres_url, worker=f"w{i}") as store:
            return store.record_digest(digest, 1, [("mail", "email", MESSAGE)])

    made = together(4, make)
    assert len([m for m in made if isinstance(m, int)]) == 1
    assert [m for m in made if isinstance(m, str)] == ["already made"] * 3
    with Store(postgres_url) as store:
        assert len(store.outbox()) == 1 and store.sent_ids("ana", ["2611.00001"]) == {"2611.00001"}


def test_workers_alerting_at_once_keep_the_daily_cap(postgres_url: str) -> None:
    Store(postgres_url).close()

    def alert(i: int) -> str:
        with Store(postgres_url, worker=f"w{i}") as store:
            messages = [("mail", "email", MESSAGE)]
            day, match = date(2026, 11, 30), Scored(Paper(f"p{i}", "A paper", "x"), 0.9)
            return store.journal.record_alert(
                "ana", f"p{i}", day, 0.9, ["x"], NOW, messages, 2, held=(match, ["x"])
            )

    # Over the cap is held for the next digest, each paper once, by whichever worker found it.
    assert sorted(together(4, alert)) == ["alerted", "alerted", "held", "held"]
    with Store(postgres_url) as store:
        assert store.journal.alerts_on("ana", date(2026, 11, 30)) == 2
        assert store.journal.held_counts() == {"ana": 2}


def record(store: Store, subscribers: int) -> None:
    paper = Paper("2611.00001", "A paper", "x")
    store.add_papers([paper], NOW)
    for n in range(subscribers):
        digest = Digest(f"s{n}", "P1", date(2026, 11, 30), (Scored(paper, 0.5),), NOW)
        store.record_digest(digest, 1, [("mail", "email", MESSAGE)])


def test_outbox_rows_claimed_at_once_go_to_one_worker_each(postgres_url: str) -> None:
    with Store(postgres_url) as store:
        record(store, 60)

    def claim(i: int) -> list[int]:
        with Store(postgres_url, worker=f"w{i}") as store:
            return [row.id for row in store.due(NOW)]

    claimed = together(3, claim)
    everyone = [row_id for rows in claimed for row_id in rows]
    assert sorted(everyone) == sorted(set(everyone)) and len(everyone) == 60


def test_a_dead_workers_rows_pass_to_another_when_the_lease_ends(postgres_url: str) -> None:
    with Store(postgres_url, worker="a") as a, Store(postgres_url, worker="b") as b:
        record(a, 2)
        mine = a.due(NOW)
        assert len(mine) == 2 and b.due(NOW) == []
        # A lease is timed on the database server's clock, not on the run's: a worker whose
        # clock is ahead (or a run replayed with --now) takes nothing still leased.
        assert b.due(NOW + LEASE + timedelta(hours=1)) == []
        # a renews the first before sending it, then dies: the second is b's once the lease ends.
        assert a.renew(mine[0].id, NOW)
        lapse(postgres_url, mine[1].id)
        taken = b.due(NOW)
        assert [row.id for row in taken] == [mine[1].id]
        assert not a.renew(mine[1].id, NOW)  # a late a must not send it too
        b.mark_sent(taken[0].id, "ok", NOW)
        assert not b.renew(taken[0].id, NOW)  # nor b again
        assert b.due(NOW) == []
        lapse(postgres_url, mine[0].id)
        assert [row.id for row in b.due(NOW)] == [mine[0].id]


def test_a_lease_holds_however_far_behind_its_workers_clock_is(postgres_url: str) -> None:
    """A worker 15 minutes slow had leases that ended at once on the others' clocks: they took
    its rows while it sent them, and every mail went twice."""
    with Store(postgres_url, worker="slow") as slow, Store(postgres_url, worker="b") as b:
        record(slow, 2)
        mine = slow.due(NOW - timedelta(minutes=15))
        assert len(mine) == 2 and b.due(NOW) == []
        assert slow.renew(mine[0].id, NOW - timedelta(minutes=15)) and b.due(NOW) == []
        assert b.outbox_counts(NOW) == {"in flight": 2}


def test_claims_left_unsent_are_given_back_for_any_worker(postgres_url: str) -> None:
    with Store(postgres_url, worker="a") as a, Store(postgres_url, worker="b") as b:
        record(a, 3)
        first, *rest = a.due(NOW)
        a.mark_sent(first.id, "ok", NOW)
        assert a.release() == 2  # a rate limit left two for a later run
        assert [row.id for row in b.due(NOW)] == [row.id for row in rest]


class RefusingSecond(SlackWebhook):
    """The Slack stand-in, answering its second post 429 (Retry-After 1); `heads` is every post's
    header, answered or not: what reached Slack."""

    def __init__(self) -> None:
        self.heads: list[str] = []
        super().__init__(rate=100, burst=100)

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, dict[str, str]] | None:
        with self.lock:
            self.heads.append(json.loads(body)["blocks"][0]["text"]["text"][-5:])
            second = len(self.heads) == 2
        if second:
            return 429, "rate_limited", {"Retry-After": "1"}
        return super().handle(method, path, body, headers)


def test_a_worker_that_waited_out_a_rate_limit_never_posts_a_part_taken_over(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """a waits out a 429 on part 2; meanwhile its lease ends, b takes the row over and posts
    part 2: a, waking, must not post it again, nor mark anything."""
    monkeypatch.setattr(SlackChannel, "interval", 0.0)  # the only sleep: the rate limit's
    server = RefusingSecond()
    url = server.url()
    config = ChannelConfig("slack", "slack", {"webhook": url})
    settings = Settings("t.toml", (), (Subscriber("ana", Profile("x"), (config,)),))
    later = NOW + LEASE + timedelta(minutes=1)
    outcomes: list[outbox.Outcome] = []

    def b_runs_meanwhile(seconds: float) -> None:
        lapse(postgres_url)  # a's lease ends while it waits
        with Store(postgres_url, worker="b") as b:
            outcomes.append(outbox.deliver(b, settings, later, sleep=lambda s: None))

    try:
        with Store(postgres_url, worker="a") as a:
            digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
            a.record_digest(digest, 1, [("slack", "slack", message(30))])  # two messages
            first = outbox.deliver(a, settings, NOW, sleep=b_runs_meanwhile)
            (row,) = a.outbox()
    finally:
        server.stop()
    assert server.heads == ["(1/2)", "(2/2)", "(2/2)"]  # a's refused, then b's: never a's again
    (by_b,) = outcomes
    assert len(by_b.sent) == 1 and first.sent == first.retrying == first.dead == []
    assert (row.status, row.parts_sent, row.attempts) == ("sent", 2, 1)


def test_marks_of_a_worker_whose_row_was_taken_over_change_nothing(postgres_url: str) -> None:
    with Store(postgres_url, worker="a") as a, Store(postgres_url, worker="b") as b:
        record(a, 1)
        (mine,) = a.due(NOW)
        lapse(postgres_url)
        assert a.mark_many([], [(mine.id, 1)], NOW) == set()  # a claim renews the lease
        assert b.due(NOW) == []
        lapse(postgres_url)
        (taken,) = b.due(NOW)
        assert a.mark_many([], [(mine.id, 2)], NOW) == {mine.id}  # part 2 not a's
        assert not a.mark_failed(mine.id, "503", None) and not a.mark_sent(mine.id, "x", NOW)
        (row,) = b.outbox()
        assert (row.status, row.parts_sent, row.attempts, row.last_error) == ("pending", 1, 0, "")
        assert b.mark_sent(taken.id, "ok", NOW)


# One name, several processes: a claim is a process's, not its name's.

# A second process under the name "w1" (as `docker compose exec worker-1 digest retry` inherits
# the serve's DIGEST_WORKER): what it claims, renews, marks and gives back of the given rows.
SECOND = """
import json, sys
from datetime import datetime
from digest.state import Store
now, ids = datetime.fromisoformat(sys.argv[2]), [int(i) for i in sys.argv[3:]]
with Store(sys.argv[1], worker="w1") as second:
    print(json.dumps({
        "due": [row.id for row in second.due(now)],
        "renewed": [second.renew(i, now) for i in ids],
        "parts": sorted(second.mark_many([], [(i, 1) for i in ids], now)),
        "failed": [second.mark_failed(i, "refused", None) for i in ids],
        "sent": [second.mark_sent(i, "sent again", now) for i in ids],
        "released": second.release(),
    }))
"""


def second_process(url: str, *ids: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", SECOND, url, NOW.isoformat(), *map(str, ids)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_second_live_process_under_the_same_name_leaves_the_firsts_rows_alone(
    postgres_url: str,
) -> None:
    with Store(postgres_url, worker="w1") as first:
        record(first, 2)
        ids = [row.id for row in first.due(NOW)]
        assert len(ids) == 2
        assert second_process(postgres_url, *ids) == {
            "due": [],  # being sent by the first
            "renewed": [False, False],
            "parts": ids,  # none of its claims of a part went in
            "failed": [False, False],
            "sent": [False, False],
            "released": 0,
        }
        # Still the first's, untouched: it sends them, once.
        assert all(first.renew(i, NOW) for i in ids)
        assert [(r.status, r.attempts, r.parts_sent) for r in first.outbox()] == [
            ("pending", 0, 0),
            ("pending", 0, 0),
        ]
        assert all(first.mark_sent(i, "ok", NOW) for i in ids)


def held_by(url: str, row_id: int, claimed_by: str) -> None:
    """The row claimed by `claimed_by`, its lease live (10 minutes on the server's clock)."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(
            f"UPDATE outbox SET claimed_by = %s, lease_until = {LEASE_END} WHERE id = %s",
            (claimed_by, row_id),
        )


def test_a_process_restarted_under_its_name_takes_back_at_once_only_a_dead_ones_rows(
    postgres_url: str,
) -> None:
    host, me, here = socket.gethostname(), os.getpid(), machine()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid names no process now: a worker killed mid-send
    living = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    claims = {
        "killed": f"w1#{here}:{dead.pid}:0a1b2c3d4e5f",
        "restarted": f"w1#{here}:{me}:0a1b2c3d4e5f",  # this pid once, in this pid namespace
        "alive": f"w1#{here}:{living.pid}:0a1b2c3d4e5f",  # e.g. the serve beside a retry
        "elsewhere": "w1#another-machine:4242:0a1b2c3d4e5f",  # nothing known of its process
        # A container sharing this hostname (host networking), pid 1 in a namespace of its own.
        "beside": f"w1#{host}/1:{me}:0a1b2c3d4e5f",
        # The same by the last release's token, which named no namespace: its pid 1 was this one.
        "no namespace": f"w1#{host}:{me}:0a1b2c3d4e5f",
        "older": "w1",  # claimed by an older digest: by name alone
        "other name": f"w2#{host}:{dead.pid}:0a1b2c3d4e5f",  # its rows are anyone's, in time
    }
    try:
        with Store(postgres_url, worker="w1") as store:
            record(store, len(claims))
            rows = dict(zip(claims, [row.id for row in store.outbox()], strict=True))
            for what, claimed_by in claims.items():
                held_by(postgres_url, rows[what], claimed_by)
            taken = {row.id for row in store.due(NOW)}
            assert taken == {rows["killed"], rows["restarted"]}
            assert all(store.mark_sent(row_id, "ok", NOW) for row_id in taken)
            lapse(postgres_url)  # the others once their leases end
            assert {row.id for row in store.due(NOW)} == set(rows.values()) - taken
    finally:
        living.kill()
        living.wait()


CONFIG = """
[state]
url = "{url}"

[[sources]]
kind = "files"
path = "papers.jsonl"

[[subscribers]]
name = "ana"
interests = "Federated learning: heterogeneous clients, secure aggregation"
[[subscribers.channels]]
kind = "file"
dir = "out"
"""


def test_status_and_health_show_every_worker(
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "papers.jsonl").write_text(papers_jsonl(20), encoding="utf-8")
    url = postgres_url.replace("digest@", "digest:s3cr3t-pw@")  # trust auth ignores it
    config = tmp_path / "digest.toml"
    config.write_text(CONFIG.format(url=url), encoding="utf-8")
    for name in ("host-a:11", "host-b:22"):
        monkeypatch.setenv("DIGEST_WORKER", name)
        assert main(["run", "--config", str(config), "--now", NOW.isoformat()]) == 0
    monkeypatch.delenv("DIGEST_WORKER")
    from digest.state.lock import write_heartbeat

    write_heartbeat(url, NOW + timedelta(seconds=5), next={}, busy=False)
    capsys.readouterr()
    assert main(["status", "--config", str(config), "--now", NOW.isoformat()]) == 0
    out = capsys.readouterr().out
    assert "s3cr3t-pw" not in out and f"over {postgres_url}" in out
    assert "serve: alive: 1 of 1 serve worker(s) ticking" in out
    assert "workers, last heartbeat first:\n  " in out and "host-a:11  run" not in out  # runs end
    assert "digests made: ana; 0 alerts; 1 sent (by host-a:11)" in out
    assert "digests made: none; 0 alerts; 0 sent (by host-b:22)" in out
    later = (NOW + timedelta(minutes=10)).isoformat()
    assert main(["health", "--config", str(config), "--now", later]) == 1
    assert "not alive: 0 of 1 serve worker(s) ticking" in capsys.readouterr().out
    monkeypatch.setenv("DIGEST_WORKER", "host-c:33")  # a container checks its own worker
    assert main(["health", "--config", str(config), "--now", NOW.isoformat()]) == 1
    assert "worker host-c:33 has not run over this state" in capsys.readouterr().out
    from digest.state import Store

    with Store(postgres_url, worker="host-d:44") as killed:  # a run killed: its beat stays
        killed.beat(NOW, "run")
    monkeypatch.setenv("DIGEST_WORKER", "host-d:44")  # ops22 F3: "has not run" was untrue
    assert main(["health", "--config", str(config), "--now", NOW.isoformat()]) == 1
    said = capsys.readouterr().out
    assert "worker host-d:44 is a digest run (its last beat 2026" in said
    assert "has not run" not in said


SERVE = """
[state]
url = "{url}"

[serve]
poll_every = "1s"

[[sources]]
kind = "files"
path = "papers.jsonl"

[[subscribers]]
name = "ana"
interests = "Federated learning: heterogeneous clients, secure aggregation"
schedule = "0 0 * * *"
[[subscribers.channels]]
kind = "file"
dir = "out"
"""


def test_health_times_a_workers_beat_on_the_servers_clock_not_its_own(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A serve whose clock ran an hour fast, killed, was "alive (0 s ago)" for that hour; a
    live one five minutes slow was "stale". Each beat is timed on the database server's clock."""
    from digest.state import Store

    real = datetime.now(UTC)
    with Store(postgres_url) as store:
        store.worker = "fast:1"
        store.beat(real + timedelta(hours=1), "serve")
        store.worker = "slow:2"
        store.beat(real - timedelta(minutes=5), "serve")
        # fast:1 was killed ten minutes ago, on the server's clock
        killed = (real - timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
        with store.transaction() as db:
            facts = json.dumps({"server_at": killed})
            db.execute("UPDATE workers SET facts = ? WHERE name = 'fast:1'", (facts,))
    capsys.readouterr()
    assert main(["health", "--state", postgres_url]) == 0
    said = capsys.readouterr().out
    assert "alive: 1 of 2 serve worker(s) ticking" in said
    assert "fast:1 stale (60" in said and "slow:2 alive" in said
    os.environ["DIGEST_WORKER"] = "fast:1"
    try:
        assert main(["health", "--state", postgres_url]) == 1
    finally:
        del os.environ["DIGEST_WORKER"]


def serve(tmp_path: Path, name: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
    return subprocess.Popen(
        [sys.executable, "-m", "digest", "serve", "--config", "digest.toml"],
        cwd=tmp_path,
        env={**env, "DIGEST_WORKER": name},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def health(tmp_path: Path, name: str, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "digest", "health"],
        cwd=tmp_path,
        env={**os.environ, "DIGEST_STATE": url, "DIGEST_WORKER": name},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_two_serve_workers_side_by_side_make_the_digest_once(
    tmp_path: Path, postgres_url: str
) -> None:
    (tmp_path / "papers.jsonl").write_text(papers_jsonl(20), encoding="utf-8")
    (tmp_path / "digest.toml").write_text(SERVE.format(url=postgres_url), encoding="utf-8")
    workers = {name: serve(tmp_path, name) for name in ("serve-a", "serve-b")}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # both beat, and both have polled a few times
            with Store(postgres_url) as store:
                runs = Counter(r["worker"] for r in store.db.execute("SELECT worker FROM runs"))
            if all(runs[name] >= 2 for name in workers):
                break
            time.sleep(0.5)
        assert all(runs[name] >= 2 for name in workers), runs
        for name in workers:
            alive = health(tmp_path, name, postgres_url)
            assert alive.returncode == 0 and f"{name} alive" in alive.stdout, alive.stdout
        for worker in workers.values():
            worker.send_signal(signal.SIGTERM)
        logs = {name: w.communicate(timeout=60)[1] for name, w in workers.items()}
    finally:
        for worker in workers.values():
            worker.kill()
    assert all(w.returncode == 0 for w in workers.values()), logs
    assert len(list((tmp_path / "out").rglob("ana*.eml"))) == 1  # made and delivered once
    with Store(postgres_url) as store:
        assert len(store.db.execute("SELECT id FROM digests").fetchall()) == 1
        assert store.outbox_counts() == {"sent": 1} and store.count_papers() == 20
    stopped = health(tmp_path, "serve-a", postgres_url)
    assert stopped.returncode == 1 and "serve-a stopped" in stopped.stdout


# End to end: three workers, one killed.


@pytest.fixture(scope="session")
def homeserver() -> Homeserver:
    return shared(relaxed=True)


def start(tmp_path: Path, name: str, now: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "digest", "run", "--config", "digest.toml", "--now", now],
        cwd=tmp_path,
        env={**os.environ, **env, "DIGEST_WORKER": name},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def claims(url: str) -> dict[str, int]:
    """The rows claimed by each worker, by name."""
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT claimed_by FROM outbox WHERE claimed_by <> ''").fetchall()
    return dict(Counter(holder(claimed_by) for (claimed_by,) in rows))


def test_three_workers_one_killed_mid_delivery_deliver_every_digest_once(
    tmp_path: Path,
    homeserver: Homeserver,
    servers: Any,  # noqa: F811 (the fixture imported from test_channels_e2e)
    postgres_url: str,
) -> None:
    started = time.monotonic()
    slack, mailbox, smtp = servers
    token = homeserver.register("workerbot")
    room = homeserver.create_room(token)
    proxy = StallingProxy(homeserver.url)
    write_config(tmp_path, smtp.port, channels(proxy.url, room))
    config = tmp_path / "digest.toml"
    config.write_text(
        config.read_text().replace('path = "state/digest.db"', f'url = "{postgres_url}"')
    )
    env = {"MATRIX_TOKEN": token, "SLACK_WEBHOOK": slack.url()}
    # Each server takes one message, then holds the next: the worker sending hangs mid-delivery.
    proxy.stall_after = slack.stall_after = mailbox.stall_after = 1
    now = "2026-11-30T09:00:00+00:00"
    workers = {name: start(tmp_path, name, now, env) for name in ("w1", "w2", "w3")}
    try:
        for server in (proxy, slack, mailbox):
            assert server.stalled.wait(60), f"{type(server).__name__} never got its second message"
        (sender,) = claims(postgres_url)  # one worker claimed the four rows
        workers[sender].kill()  # SIGKILL: no cleanup, no last words
        outputs = {name: w.communicate(timeout=60)[0] for name, w in workers.items()}
    finally:
        for worker in workers.values():
            worker.kill()
    for server in (proxy, slack, mailbox):
        server.stall_after = None
        server.release.set()
    # The killed worker's rows, leased still, are in flight to the others: no cause for exit 1.
    assert all(workers[n].returncode == 0 for n in workers if n != sender), outputs
    with Store(postgres_url) as store:
        assert store.count_papers() == 120  # three ingests, each paper once
        assert len(store.db.execute("SELECT id FROM digests").fetchall()) == 2  # ana, ben
        assert store.outbox_counts() == {"sent": 1, "in flight": 3}  # the killed worker's
    # Before the lease ends nobody takes them over; after it, the two left share what is left.
    # (Another name than the killed worker's: a worker restarted under its own name takes its
    # rows back at once.)
    other = next(n for n in workers if n != sender)
    early = start(tmp_path, other, now, env).communicate(timeout=60)[0]
    assert "deliveries: 0 sent, 0 retrying, 0 dead now" in early, early
    lapse(postgres_url)
    with Store(postgres_url) as store:
        assert store.outbox_counts() == {"sent": 1, "pending": 3}
    later = (datetime.fromisoformat(now) + timedelta(seconds=1)).isoformat()
    try:
        survivors = [start(tmp_path, n, later, env) for n in workers if n != sender]
        finals = [s.communicate(timeout=60)[0] for s in survivors]
    finally:
        proxy.stop()
    # Side by side, one may finish while the other still sends.
    assert all(s.returncode in (0, 1) for s in survivors), finals
    assert sum(f.count("\n  sent ") for f in finals) == 3, finals  # ana's three, ben's was sent
    found, count = matrix_parts(homeserver.messages(token, room))
    assert count >= 2 and found == parts(count)  # exactly once each (the txnId)
    slack_heads = [p["blocks"][0]["text"]["text"] for p in slack.accepted]
    assert max(Counter(slack_heads).values()) == 1 and len(slack_heads) >= 2  # at most once
    # A mail whose 250 was lost may come twice, with one Message-ID: a mail client shows it once.
    by_id = {m.message["Message-ID"]: m.message["Subject"].split(":")[0] for m in mailbox.mails}
    assert sorted(by_id.values()) == [
        "Paper digest for ana — 2026-11-30",
        "Paper digest for ben — 2026-11-30",
    ]
    with Store(postgres_url) as store:
        assert store.outbox_counts() == {"sent": 4}
        names = {w["name"] for w in store.workers()}
    assert names == {sender}  # the runs that ended left; the killed one stays, its beat aging
    assert time.monotonic() - started < 60


SLACK_AND_EMAIL = f"""
[[subscribers]]
name = "ana"
interests = "{INTERESTS}"
top_k = 120
[[subscribers.channels]]
kind = "slack"
webhook = "${{SLACK_WEBHOOK}}"
[[subscribers.channels]]
kind = "email"
to = "ana@example.org"

[[subscribers]]
name = "ben"
interests = "partial participation and byzantine robustness"
top_k = 5
[[subscribers.channels]]
kind = "email"
to = "ben@example.org"
"""


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_retry_under_a_sending_workers_name_sends_nothing_twice(
    engine: str,
    tmp_path: Path,
    servers: Any,  # noqa: F811 (the fixture imported from test_channels_e2e)
    postgres_cluster: Any,
) -> None:
    """`docker compose exec worker-1 digest retry` inherits the worker's DIGEST_WORKER: while the
    worker posted a digest to Slack, the retry took its row and posted it again, part by part."""
    slack, mailbox, smtp = servers
    write_config(tmp_path, smtp.port, SLACK_AND_EMAIL)
    if engine == "postgresql":
        config = tmp_path / "digest.toml"
        url = postgres_cluster.create_database()
        config.write_text(config.read_text().replace('path = "state/digest.db"', f'url = "{url}"'))
    env = {"SLACK_WEBHOOK": slack.url()}
    slack.stall_after = 1  # Slack answers part 1, then holds part 2's answer: mid-send
    worker = start(tmp_path, "worker-1", NOW.isoformat(), env)
    retry: subprocess.Popen[str] | None = None
    try:
        assert slack.stalled.wait(60), "the worker never posted part 2"
        retry = subprocess.Popen(
            [sys.executable, "-m", "digest", "retry", "--config", "digest.toml"]
            + ["--now", NOW.isoformat()],
            cwd=tmp_path,
            env={**os.environ, **env, "DIGEST_WORKER": "worker-1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        # On PostgreSQL it runs beside the worker and ends; over SQLite it waits for the run
        # lock, which the worker holds until it is done.
        with contextlib.suppress(subprocess.TimeoutExpired):
            retry.wait(timeout=20 if engine == "postgresql" else 2)
        slack.release.set()
        retried = retry.communicate(timeout=60)[0]
        sent = worker.communicate(timeout=60)[0]
    finally:
        for process in (worker, retry):
            if process is not None:
                process.kill()
    assert worker.returncode == 0, sent
    assert retry.returncode == 0 and "; 0 sent, 0 retrying, 0 dead now;" in retried, retried
    heads = [p["blocks"][0]["text"]["text"] for p in slack.accepted]
    assert Counter(heads) == parts(7)  # each part once, all from the worker
    mails = Counter(m.message["Subject"].split(":")[0] for m in mailbox.mails)
    assert mails == Counter(
        {"Paper digest for ana — 2026-11-30": 1, "Paper digest for ben — 2026-11-30": 1}
    )


def waiting_for_a_lock(url: str, holder: int) -> bool:
    """Whether a session other than the holder's waits for (or keeps trying) an advisory lock."""
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid NOT IN (%s, pg_backend_pid()) AND query LIKE '%%advisory_xact_lock%%'",
            (holder,),
        ).fetchone()
    return bool(row and row[0])


@pytest.mark.parametrize("command", ["run", "serve"])
def test_a_sigterm_ends_a_wait_for_a_lock_that_a_frozen_worker_holds(
    command: str, tmp_path: Path, postgres_url: str
) -> None:
    """A worker frozen with the papers' lock (a paused container): a `digest run` got its SIGTERM
    and ended 14 minutes later, once the frozen one was resumed; a serve stayed up as long."""
    (tmp_path / "papers.jsonl").write_text(papers_jsonl(20), encoding="utf-8")
    (tmp_path / "digest.toml").write_text(SERVE.format(url=postgres_url), encoding="utf-8")
    Store(postgres_url).close()
    frozen = psycopg.connect(postgres_url)  # its transaction never ends while the test runs
    frozen.execute("SELECT pg_advisory_xact_lock(hashtext('digest:papers'))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
    worker = subprocess.Popen(
        [sys.executable, "-m", "digest", command, "--config", "digest.toml"],
        cwd=tmp_path,
        env={**env, "DIGEST_WORKER": "waiting"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not waiting_for_a_lock(postgres_url, frozen.info.backend_pid):
            assert time.monotonic() < deadline and worker.poll() is None, "it never waited"
            time.sleep(0.2)
        worker.send_signal(signal.SIGTERM)
        err = worker.communicate(timeout=60)[1]  # the wait had lasted as long as the freeze
    finally:
        worker.kill()
        frozen.close()
    stopped = "stopped while waiting for another worker's lock on papers; nothing of this step"
    assert stopped in err and "Traceback" not in err, err
    if command == "serve":
        assert worker.returncode == 0 and "serve: stopped cleanly on SIGTERM" in err, err
    else:  # one line, and stopped by SIGTERM as a run is
        assert worker.returncode == 143 and err.count("\n") == 1, err
