"""`digest retry` and its options: `--subscriber` sends that subscriber's deliveries alone (its
dead ones revived, and none of another's, due or not); `--drop` with `--subscriber` gives up
only that subscriber's dead deliveries and refuses another's name. Stopped by SIGTERM, it
finishes the post on the wire and leaves the rest pending, as `digest run` does."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from channel_servers import SlackWebhook
from sample_digests import message, paper

from digest.cli import main
from digest.models import Digest, Scored
from digest.state import Store

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)
PERIOD = "2026-11-30T00:00:00+00:00"  # an earlier period's digests, still in the outbox
NAMES = ("alice", "bob", "carol")

CONFIG = "\n".join(
    [
        '[[sources]]\nkind = "files"\npath = "papers.jsonl"\n',
        *(
            f'[[subscribers]]\nname = "{name}"\ninterests = "x"\n'
            f'[[subscribers.channels]]\nkind = "file"\ndir = "out"\n'
            for name in NAMES
        ),
    ]
)


@pytest.fixture
def project(tmp_path: Path) -> list[str]:
    """alice's and carol's deliveries dead, bob's pending and due: the options to name them."""
    (tmp_path / "papers.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "digest.toml").write_text(CONFIG, encoding="utf-8")
    with Store(tmp_path / "state.db") as store:
        for name in NAMES:
            digest = Digest(name, PERIOD, NOW.date(), (Scored(paper(1), 0.5),), NOW)
            store.record_digest(digest, 1, [("file", "file", message(1, subscriber=name))])
        rows = {row.subscriber: row for row in store.due(NOW)}
        store.mark_failed(rows["alice"].id, "disk full", None)
        store.mark_failed(rows["bob"].id, "disk busy", NOW - timedelta(minutes=1))
        store.mark_failed(rows["carol"].id, "disk full", None)
    return [
        "--config",
        str(tmp_path / "digest.toml"),
        "--state",
        str(tmp_path / "state.db"),
        "--now",
        NOW.isoformat(),
    ]


def statuses(tmp_path: Path) -> dict[str, str]:
    with Store(tmp_path / "state.db") as store:
        return {row.subscriber: row.status for row in store.outbox()}


def test_retry_of_one_subscriber_sends_its_deliveries_alone(
    project: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["retry", *project, "--subscriber", "alice"]) == 1  # bob and carol remain
    out = capsys.readouterr().out
    assert "retry: 1 dead delivery queued again; 1 sent, 0 retrying, 0 dead now" in out
    assert "  sent alice/file: " in out and "bob" not in out
    assert statuses(tmp_path) == {"alice": "sent", "bob": "pending", "carol": "dead"}
    assert [p.name for p in (tmp_path / "out").glob("*/*.eml")] == ["alice.eml"]
    assert main(["retry", *project]) == 0  # every one, without --subscriber
    assert statuses(tmp_path) == {"alice": "sent", "bob": "sent", "carol": "sent"}


def test_drop_of_another_subscribers_delivery_is_refused(
    project: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["retry", *project, "--subscriber", "alice", "--drop", "carol/file"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        "digest: --drop carol/file: no dead delivery of it with --subscriber alice;"
        " dead: alice/file"
    ]
    assert statuses(tmp_path) == {"alice": "dead", "bob": "pending", "carol": "dead"}
    assert main(["retry", *project, "--subscriber", "carol", "--drop", "carol/file"]) == 1
    assert statuses(tmp_path) == {"alice": "dead", "bob": "pending", "carol": "dropped"}


def test_retry_sends_a_delivery_waiting_for_a_next_try_now(project: list[str], tmp_path: Path):
    """A clock that ran a day ahead had put its next try a day away; set back, nothing but
    waiting a day would send it, and `digest retry` revived only dead deliveries."""
    with Store(tmp_path / "state.db") as store:
        (bob,) = [r for r in store.outbox() if r.subscriber == "bob"]
        store.db.execute(
            "UPDATE outbox SET next_try_at = '2026-12-01T09:00:00Z' WHERE id = ?", (bob.id,)
        )
    main(["retry", *project, "--subscriber", "bob"])  # (exit 1: alice and carol are dead)
    assert statuses(tmp_path)["bob"] == "sent"


REPO = Path(__file__).resolve().parent.parent
SLACK_CONFIG = """
[[sources]]
kind = "seeds"
path = "seeds"
[delivery]
max_attempts = 1
concurrency = 1
[[subscribers]]
name = "ana"
interests = "differential privacy and federated learning for language models"
[[subscribers.channels]]
kind = "slack"
webhook = "{ana}"
[[subscribers]]
name = "bob"
interests = "reasoning in large language models, chain of thought"
[[subscribers.channels]]
kind = "slack"
webhook = "{bob}"
"""


def test_a_sigterm_finishes_the_post_on_the_wire_and_leaves_the_rest_pending(
    tmp_path: Path,
) -> None:
    # `timeout`, systemd and shutdown send SIGTERM. `digest retry` died at once, silent (143):
    # Slack had posted ana's digest, and the next retry called it dead, "may be missing".
    slack = SlackWebhook()
    try:
        hooks = {name: slack.url(f"{name}hook", "channel_not_found") for name in ("ana", "bob")}
        shutil.copytree(REPO / "seeds", tmp_path / "seeds")
        (tmp_path / "digest.toml").write_text(SLACK_CONFIG.format(**hooks), encoding="utf-8")
        args = ["--config", str(tmp_path / "digest.toml"), "--now", "2026-11-30T10:00Z"]
        assert main(["run", *args]) == 1  # both dead: the channels were not found
        for path in slack.hooks:  # the cause fixed
            slack.hooks[path] = "ok"
        slack.stall_after = 0  # the first post is taken, then held unanswered
        command = [sys.executable, "-m", "digest", "retry", *args]
        proc = subprocess.Popen(
            command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert slack.stalled.wait(60)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)  # the signal is taken while the post waits for its answer
        slack.release.set()
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 143, err
        assert err.splitlines() == [
            "digest: WARNING: terminated (SIGTERM): what is not delivered goes out with the next"
            " run or retry"
        ]
        assert "1 sent" in out and "1 pending, 0 dead in all" in out
        assert len(slack.accepted) == 1
        with Store(tmp_path / "state" / "digest.db") as store:
            kept = {row.subscriber: row.status for row in store.outbox()}
        assert sorted(kept.values()) == ["pending", "sent"]
        slack.stall_after = None
        assert main(["retry", *args]) == 0
        assert len(slack.accepted) == 2  # the other one, and the first not again
    finally:
        slack.release.set()
        slack.stop()


def test_a_slack_delivery_that_can_never_be_posted_again_is_not_called_queued_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ops20 F3: ana's one part got no answer (it may have been posted; never posted twice) and
    the row died "nothing was confirmed"; `digest retry` said "1 dead delivery queued again",
    sent nothing, and listed the same refusal as "dead now". bob's died of a 404: queued."""
    slack = SlackWebhook()
    try:
        hooks = {name: slack.url(f"{name}hook") for name in ("ana", "bob")}
        (tmp_path / "papers.jsonl").write_text("", encoding="utf-8")
        config = SLACK_CONFIG.replace('"seeds"\npath = "seeds"', '"files"\npath = "papers.jsonl"')
        (tmp_path / "digest.toml").write_text(config.format(**hooks), encoding="utf-8")
        with Store(tmp_path / "state.db") as store:
            for name in ("ana", "bob"):
                digest = Digest(name, PERIOD, NOW.date(), (Scored(paper(1), 0.5),), NOW)
                store.record_digest(digest, 1, [("slack", "slack", message(1, subscriber=name))])
            ana, bob = store.due(NOW)
            store.mark_many([], [(ana.id, 1, (1,))])  # claimed, posted, no answer
            store.mark_failed(ana.id, "slack: no answer for part 1 of 1", NOW)
            store.due(NOW)
            store.mark_failed(ana.id, "slack: part 1 of 1 got no answer ... nothing", None)
            store.mark_failed(bob.id, "slack answered 404 channel_not_found", None)
        args = ["--config", str(tmp_path / "digest.toml"), "--state", str(tmp_path / "state.db")]
        assert main(["retry", *args, "--now", NOW.isoformat()]) == 1
    finally:
        slack.stop()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "retry: 1 dead delivery queued again, 1 left dead (no try can send it); 1 sent,"
        " 0 retrying, 0 dead now; 0 pending, 1 dead in all"
    )
    assert out[2].startswith("  still dead ana/slack: slack: part 1 of 1 had no answer recorded on")
    assert out[2].endswith("nothing was confirmed; give it up: digest retry --drop ana/slack")
    assert len(slack.accepted) == 1  # bob's; ana's not again
    assert "anahook" not in "\n".join(out)  # the webhook is a secret
    with Store(tmp_path / "state.db") as store:  # left as it was: its two attempts counted
        assert [r.attempts for r in store.outbox("dead")] == [2]
