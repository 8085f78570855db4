"""`digest retry` and its options: `--subscriber` sends that subscriber's deliveries alone (its
dead ones revived, and none of another's, due or not); `--drop` with `--subscriber` gives up
only that subscriber's dead deliveries and refuses another's name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
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
