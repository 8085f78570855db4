"""`digest preview`: the digest a run at the same instant would make, or its notice, or the line
that nothing is sent; each checked against that run on a real store (preview.py)."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from web_project import GRAPHS, IMAGES, papers_file, project

from digest import alerts, pipeline
from digest.models import Message, Settings, SourceConfig
from digest.state import Store
from tests.test_pipeline import PRIVACY, UNLEARN, VISION, settings_for, subscriber, write_seeds
from tests.test_state_lineage import _run


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.usefixtures("ranking_mode")
def test_preview_ranks_in_the_stored_space_a_run_ranks_in(tmp_path: Path, monkeypatch) -> None:
    from digest import corpus
    from digest.ranking import background
    from tests.test_ranking import load_seed_papers

    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    # Without the built-in background: with it, 57 stored papers beside its 20,718 weigh words
    # (and place the basis) as no store does, and the two previews read alike.
    monkeypatch.setattr(background, "FILE", tmp_path / "no-background.npz")
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN, VISION)  # today's papers, not stored
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    now = datetime(2026, 11, 30, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:
        store.add_papers(load_seed_papers(), now)  # the stored corpus: the 57 seed papers
        assert corpus.ranking_space(store, settings.subscribers, now) is not None
        stored = pipeline.preview(settings, store, "ana", now).text
        store.db.execute("DELETE FROM spaces")  # now the preview fits on its own pool
        alone = pipeline.preview(settings, store, "ana", now).text
    assert "differential privacy" in stored.lower()
    assert stored != alone  # other idf and centroid: other scores


@pytest.mark.usefixtures("ranking_mode")
def test_preview_ranks_in_the_space_the_run_refits_when_its_new_papers_make_it_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Preview stores nothing, so it took the saved space for current; the run, having stored
    # the day's papers, refitted it: other scores, another tenth pick.
    from digest import corpus
    from tests.test_ranking import load_seed_papers

    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    seeds = load_seed_papers()
    ana = dataclasses.replace(subscriber("ana", "differential privacy and learning"), top_k=8)
    settings = settings_for(tmp_path, ana)
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:
        store.add_papers(seeds[:20], datetime(2026, 11, 29, tzinfo=UTC))
        corpus.ranking_space(store, settings.subscribers, now)  # saved: 20 papers
        write_seeds(tmp_path, "a.txt", *[p.abstract for p in seeds[20:]])  # 37 new: stale
        shown = pipeline.preview(settings, store, "ana", now)
        pipeline.run_once(settings, store, now)
        (row,) = [r for r in store.outbox() if r.purpose == "digest"]
    assert row.message is not None and shown.text == row.message.text


@pytest.mark.usefixtures("ranking_mode")
def test_preview_leaves_out_what_the_last_digest_considered_as_the_run_does(
    tmp_path: Path,
) -> None:
    # The sources return yesterday's papers again; the run ranks only papers after its last
    # digest, and the preview of the next digest must show what that run would send.
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN)
    ana = subscriber("ana", "differential privacy and unlearning")
    settings = settings_for(tmp_path, dataclasses.replace(ana, top_k=1))
    with Store(tmp_path / "s.db") as store:
        made = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        assert made.subscribers[0].picked == 1  # the other was considered, and passed over
        later = datetime(2026, 12, 1, 12, tzinfo=UTC)
        shown = pipeline.preview(settings, store, "ana", later)
        assert pipeline.run_once(settings, store, later).subscribers[0].status == "nothing new"
    assert shown == (
        'ana: nothing would be sent for the digest of 2026-12-01 (on_empty = "skip"): '
        "No new papers arrived since your last digest."
    )


@pytest.mark.usefixtures("ranking_mode")
@pytest.mark.parametrize(
    ("interests", "quiet"),
    [
        ("differential privacy and unlearning", "no new papers"),
        ("galaxy rotation curves", "nothing matched"),
    ],
)
def test_preview_of_a_quiet_period_shows_the_notice_a_run_sends(
    tmp_path: Path, interests: str, quiet: str
) -> None:
    # A preview showed a digest of "0 new papers" that no run ever sends.
    write_seeds(tmp_path, "a.txt", PRIVACY)
    ana = subscriber("ana", interests, on_empty="notify", min_score=0.05)
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        if quiet == "no new papers":
            pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        later = datetime(2026, 12, 1, 12, tzinfo=UTC)
        shown = pipeline.preview(settings, store, "ana", later)
        pipeline.run_once(settings, store, later)
    assert isinstance(shown, Message) and quiet in shown.subject
    (eml,) = (tmp_path / "out" / "2026-12-01").glob("ana*.eml")
    sent = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert sent["Subject"] == shown.subject


@pytest.mark.usefixtures("ranking_mode")
def test_preview_after_the_periods_digest_shows_the_next_one_without_what_goes_as_alerts(
    tmp_path: Path,
) -> None:
    write_seeds(tmp_path, "a.txt", UNLEARN)
    ana = subscriber("ana", "differential privacy and unlearning", alert_keywords=("federated",))
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        write_seeds(tmp_path, "b.txt", PRIVACY)  # names "federated": an alert, no digest's
        later = datetime(2026, 11, 30, 13, tzinfo=UTC)
        shown = pipeline.preview(settings, store, "ana", later)
        report = pipeline.run_once(settings, store, later)
    assert [len(a.made) for a in report.alerts] == [1]
    assert isinstance(shown, str)  # the only new paper went out as an alert: nothing is left
    assert "the digest of 2026-12-01" in shown and "went out as an alert" in shown


def test_preview_after_a_schedule_edit_into_a_covered_period_shows_the_next_digest(
    tmp_path: Path,
) -> None:
    # A new schedule's period that the last digest covered opens no digest in a run ("already
    # made"); its preview showed one for it, of papers the next period's digest carries.
    write_seeds(tmp_path, "a.txt", UNLEARN)
    ana = subscriber("ana", "differential privacy and unlearning")
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(
            settings_for(tmp_path, ana), store, datetime(2026, 11, 30, 12, tzinfo=UTC)
        )
        write_seeds(tmp_path, "b.txt", PRIVACY)
        edited = settings_for(tmp_path, dataclasses.replace(ana, schedule="0 10 * * *"))
        later = datetime(2026, 11, 30, 13, tzinfo=UTC)
        shown = pipeline.preview(edited, store, "ana", later)
        report = pipeline.run_once(edited, store, later)
        assert [s.status for s in report.subscribers] == ["already made"]
        assert isinstance(shown, Message) and "2026-12-01" in shown.subject
        pipeline.run_once(edited, store, datetime(2026, 12, 1, 10, tzinfo=UTC))
        assert_foreseen(shown, store, datetime(2026, 12, 1, tzinfo=UTC))


def test_preview_on_a_clock_behind_the_last_digest_says_a_run_makes_none(tmp_path: Path) -> None:
    write_seeds(tmp_path, "a.txt", UNLEARN)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy and unlearning"))
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings, store, datetime(2026, 12, 1, 12, tzinfo=UTC))
        write_seeds(tmp_path, "b.txt", PRIVACY)
        back = datetime(2026, 11, 30, 12, tzinfo=UTC)  # a clock stepped back a day
        shown = pipeline.preview(settings, store, "ana", back)
        report = pipeline.run_once(settings, store, back)
    assert [s.status for s in report.subscribers] == ["clock behind"]
    assert (
        shown
        == "ana: clock behind: a run now makes no digest (the last is of 2026-12-01T08:00:00+00:00)"
    )


@pytest.mark.usefixtures("ranking_mode")
def test_preview_before_the_digest_carries_alert_matches_as_the_run_holds_them(
    tmp_path: Path,
) -> None:
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN)
    ana = subscriber("ana", "machine unlearning", alert_keywords=("federated",))
    settings = settings_for(tmp_path, dataclasses.replace(ana, top_k=1))
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:
        shown = pipeline.preview(settings, store, "ana", now)
        pipeline.run_once(settings, store, now)
    (eml,) = (tmp_path / "out" / "2026-11-30").glob("ana*.eml")
    mail = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    made = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    for text in (shown.text, made):  # the held alert ahead of the one pick, beyond top_k
        assert "private client updates" in text and "training data" in text


@pytest.mark.usefixtures("ranking_mode")
def test_preview_when_no_source_can_be_read_says_so_as_the_run_does(tmp_path: Path) -> None:
    # It said "no new papers since your last digest", on a state that had no digest yet.
    ana = subscriber("ana", "differential privacy", on_empty="notify")
    settings = settings_for(tmp_path, ana, path=str(tmp_path / "unmounted"))
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:
        shown = pipeline.preview(settings, store, "ana", now)
        report = pipeline.run_once(settings, store, now)
    assert [s.status for s in report.subscribers] == ["waiting for sources"]
    assert isinstance(shown, Message) and "a source failed" in shown.subject
    assert "could not read seeds" in shown.text


@pytest.mark.usefixtures("ranking_mode")
def test_preview_when_the_liked_papers_cannot_be_looked_up_makes_no_digest(
    tmp_path: Path,
) -> None:
    # It showed a digest ranked without the liked paper, which no run makes.
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN)
    dead = SourceConfig(  # no 3 s of politeness between its two lookups: none is answered
        "arxiv", "arxiv", {"url": "http://127.0.0.1:1/api/query", "retries": 0, "delay": 0}
    )
    ana = subscriber("ana", "differential privacy", likes=("2501.01234",))
    settings = dataclasses.replace(settings_for(tmp_path, ana), sources=(
        *settings_for(tmp_path, ana).sources, dead))  # fmt: skip
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:
        shown = pipeline.preview(settings, store, "ana", now)
        report = pipeline.run_once(settings, store, now)
    assert [s.status for s in report.subscribers] == ["waiting for liked papers"]
    assert shown == "ana: waiting for liked papers: a run now makes no digest (the lookup failed)"


@pytest.mark.usefixtures("ranking_mode")
def test_preview_changes_nothing(tmp_path: Path) -> None:
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    with Store(tmp_path / "s.db") as store:
        message = pipeline.preview(settings, store, "ana", datetime(2026, 11, 30, tzinfo=UTC))
        assert "differential privacy" in message.text.lower()
        assert store.count_papers() == 0 and store.outbox() == [] and store.runs() == []
        assert not (tmp_path / "out").exists()


# Three papers naming the alert keyword "federated": with a cap of one alert a day, one goes
# out as an alert and two are held for the next digest.
FEDERATED = (
    PRIVACY,
    "Federated optimization with secure aggregation keeps the updates of each client private.",
    "Personalized federated learning adapts one shared model to the private data of each client.",
)
DAY1, LATER = datetime(2026, 11, 30, 12, tzinfo=UTC), datetime(2026, 11, 30, 13, tzinfo=UTC)
DAY2 = datetime(2026, 12, 1, 12, tzinfo=UTC)


def alerting(tmp_path: Path, down: bool) -> Settings:
    """ana, one alert a day, a notice of a quiet period; with `down`, beside her papers' folder a
    mirror that cannot be read (a share not mounted)."""
    ana = subscriber(
        "ana", "differential privacy and unlearning", alert_keywords=("federated",),
        max_alerts_per_day=1, on_empty="notify",
    )  # fmt: skip
    settings = settings_for(tmp_path, ana)
    mirror = SourceConfig("seeds", "mirror", {"path": str(tmp_path / "unmounted")})
    return dataclasses.replace(settings, sources=(*settings.sources, mirror)) if down else settings


def assert_foreseen(shown: Message | str, store: Store, day: datetime) -> None:
    """The preview is what that day's run recorded: its digest, or its notice."""
    (row,) = [r for r in store.outbox() if r.day == day.date() and r.purpose != "alert"]
    assert isinstance(shown, Message) and row.message is not None
    assert (shown.subject, shown.text) == (row.message.subject, row.message.text)


@pytest.mark.parametrize("down", [True, False], ids=["a source down", "sources up"])
@pytest.mark.parametrize(
    ("state", "with_down", "with_up"),
    [
        ("held alerts alone", "waiting for sources", "made"),
        ("held alerts, some past the most", "waiting for sources", "made"),
        ("held alerts and news", "made", "made"),
        ("neither", "waiting for sources", "nothing new"),
    ],
)
def test_preview_foresees_whether_the_run_makes_a_digest_or_waits_for_its_sources(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    down: bool,
    state: str,
    with_down: str,
    with_up: str,
) -> None:
    # With held alerts alone and a source down, the preview showed a digest (held alerts and
    # picks) while the run at the same instant waited for the source and sent its notice: the
    # preview had asked whether a source was down only when it had nothing else to show.
    if "past the most" in state:
        monkeypatch.setattr(alerts, "HELD_MOST", 1)  # one held alert carried, one a candidate
    write_seeds(tmp_path, "a.txt", VISION)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(alerting(tmp_path, False), store, DAY1)  # the day's (quiet) digest
        if state != "neither":
            write_seeds(tmp_path, "b.txt", *FEDERATED)
            report = pipeline.run_once(alerting(tmp_path, False), store, LATER)
            assert [(len(a.made), a.held) for a in report.alerts] == [(1, 2)]
        if "news" in state:
            write_seeds(tmp_path, "c.txt", UNLEARN)  # names no alert keyword
        settings = alerting(tmp_path, down)
        shown = pipeline.preview(settings, store, "ana", DAY2)
        report = pipeline.run_once(settings, store, DAY2)
        assert [s.status for s in report.subscribers] == [with_down if down else with_up]
        assert_foreseen(shown, store, DAY2)


def test_preview_of_a_waiting_period_whose_notice_went_out_says_a_run_sends_nothing(
    tmp_path: Path,
) -> None:
    # A waiting period's notice goes once; its preview had shown it again for the next run.
    write_seeds(tmp_path, "a.txt", VISION)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(alerting(tmp_path, False), store, DAY1)
        down = alerting(tmp_path, True)
        first = pipeline.preview(down, store, "ana", DAY2)
        pipeline.run_once(down, store, DAY2)
        assert_foreseen(first, store, DAY2)  # the notice
        later = DAY2.replace(hour=15)
        again = pipeline.preview(down, store, "ana", later)
        report = pipeline.run_once(down, store, later)
        assert [(s.status, s.notified) for s in report.subscribers] == [
            ("waiting for sources", False)
        ]
        assert len([r for r in store.outbox() if r.day == DAY2.date()]) == 1
    assert again == (
        "ana: nothing would be sent for the digest of 2026-12-01: the notice that a source"
        " could not be read went out already; the period waits for its sources"
    )


@pytest.mark.parametrize("down", [True, False], ids=["a source down", "sources up"])
@pytest.mark.parametrize(
    ("matches", "with_up"),
    [(FEDERATED, "made"), (FEDERATED[:1], "alerted")],
    ids=["alerts held past the cap", "alerts told"],
)
def test_preview_after_the_periods_digest_foresees_the_next_run(
    tmp_path: Path, down: bool, matches: tuple[str, ...], with_up: str
) -> None:
    # Once the period's digest is made, the preview shows the next period's: after a run now
    # sends the day's alert and holds the rest. With a source down, that run waits for it.
    write_seeds(tmp_path, "a.txt", VISION)
    settings = alerting(tmp_path, down)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(alerting(tmp_path, False), store, DAY1)
        write_seeds(tmp_path, "b.txt", *matches)
        shown = pipeline.preview(settings, store, "ana", LATER)
        now = pipeline.run_once(settings, store, LATER)
        assert [s.status for s in now.subscribers] == ["already made"]
        assert [len(a.made) for a in now.alerts] == [1]
        report = pipeline.run_once(settings, store, DAY2)
        assert [s.status for s in report.subscribers] == [
            "waiting for sources" if down else with_up
        ]
        assert_foreseen(shown, store, DAY2)


def _preview(p: Any, name: str, now: str) -> Message | str:
    with Store(p.state) as store:
        return pipeline.preview(p.settings(), store, name, datetime.fromisoformat(now))


def _mailed(p: Any, name: str, day: str) -> Message:
    """The digest the run recorded for `name` by e-mail on `day`."""
    with Store(p.state) as store:
        rows = [r for r in store.outbox() if r.subscriber == name and r.kind == "email"]
    (row,) = [r for r in rows if r.day.isoformat() == day and r.purpose == "digest"]
    assert row.message is not None
    return row.message


def _papers(message: Message | str) -> list[str]:
    text = message if isinstance(message, str) else message.text
    return re.findall(r"https://example\.org/(\w+)", text)


MON, MON10, TUE, WED = (
    "2026-11-30T09:00:00+00:00", "2026-11-30T10:00:00+00:00",
    "2026-12-01T09:00:00+00:00", "2026-12-02T09:00:00+00:00",
)  # fmt: skip
NEW = [("t1", "Graph networks for molecules", "Graph neural networks for molecules.")]
NEWER = [("w1", "Diffusion of images", "Diffusion models generate images."), *GRAPHS[2:]]


@pytest.mark.parametrize("then", ["renamed", "renamed back", "name reused"])
def test_preview_reads_a_renamed_readers_earlier_names_as_the_run_does(
    tmp_path: Path, capsys: Any, then: str
) -> None:
    # reg53 F1: the preview read the state by the name alone. anna, renamed from ana, was
    # previewed ana's mailed papers in a period the run says is made; a newcomer given the
    # name ana was previewed from her floor, the run ranking from his own first digest.
    from test_web_reuse import NEWCOMER

    with project(tmp_path, web=False) as p:
        ana = (p.root / "digest.toml").read_text(encoding="utf-8")
        anna = ana.replace('name = "ana"', 'name = "anna"')
        _run(p, capsys, MON, ana, [])
        given = _papers(_mailed(p, "ana", "2026-11-30"))
        assert given
        config, now, day, names = {
            "renamed": (anna, TUE, "2026-12-01", ["anna"]),
            "renamed back": (ana, WED, "2026-12-02", ["ana"]),
            "name reused": (anna + NEWCOMER, TUE, "2026-12-01", ["anna", "ana"]),
        }[then]
        (p.root / "digest.toml").write_text(config if then != "renamed back" else anna, "utf-8")
        if then == "renamed":  # the period is made under the old name: the next one is shown
            papers_file(p.root / "feed" / "t.jsonl", NEW)
            soon = _preview(p, "anna", MON10)
            _run(p, capsys, MON10, anna, [])
            assert not set(_papers(soon)) & set(given)
        if then == "renamed back":  # anna's own digest, then ana again
            _run(p, capsys, TUE, anna, NEW)
            given += _papers(_mailed(p, "anna", "2026-12-01"))
        (p.root / "digest.toml").write_text(config, "utf-8")
        papers_file(p.root / "feed" / "w.jsonl", NEWER if then != "renamed" else [])
        shown = {name: _preview(p, name, now) for name in names}
        _run(p, capsys, now, config, [])
        for name in names:
            made = _mailed(p, name, day)
            assert isinstance(shown[name], Message), shown[name]
            # The picks and their order (a score's last digit may differ with no stored space,
            # renamed or not: the pool a run fits on is not the preview's; not this finding's).
            assert (shown[name].subject, _papers(shown[name])) == (made.subject, _papers(made))
        if then == "renamed":
            assert _papers(soon) == _papers(made)
        assert not set(_papers(made)) & set(given) or then == "name reused"


def test_preview_counts_the_days_cap_under_a_renamed_readers_earlier_names_as_the_run_does(
    tmp_path: Path, capsys: Any
) -> None:
    # The preview had counted the day's alerts under the new name alone: ana, alerted her cap
    # (one) at 10:00 and renamed anna at 11:00, was previewed the next match as an alert, a
    # fresh cap the run does not give her; the run holds it for the next digest.
    from test_state_renames import _alerting

    with project(tmp_path, web=False) as p:
        ana = _alerting(p)  # her every match alerted, one alert a day
        _run(p, capsys, MON, ana, [])
        _run(p, capsys, MON10, ana, [GRAPHS[2], IMAGES[2]])
        with Store(p.state) as store:
            assert _alerted(store) == ["ana"]
        anna = ana.replace('name = "ana"', 'name = "anna"')
        (p.root / "digest.toml").write_text(anna, "utf-8")
        papers_file(p.root / "feed" / "t.jsonl", NEW)  # the next match, past the day's cap
        eleven = "2026-11-30T11:00:00+00:00"
        shown = _preview(p, "anna", eleven)
        _run(p, capsys, eleven, anna, [])
        with Store(p.state) as store:
            assert "t1" in {h.scored.paper.id for h in store.journal.holds("anna")}
            assert _alerted(store) == ["ana"]
        assert "t1" in _papers(shown)  # held for the next digest, as the run holds it
        _run(p, capsys, TUE, anna, [])
        made = _mailed(p, "anna", "2026-12-01")
        assert isinstance(shown, Message)
        assert (shown.subject, _papers(shown)) == (made.subject, _papers(made))


def _alerted(store: Store) -> list[str]:
    return [str(r[0]) for r in store.db.execute("SELECT subscriber FROM alerts ORDER BY made_at")]


def test_a_renamed_reader_waiting_for_its_sources_is_told_so_once(
    tmp_path: Path, capsys: Any
) -> None:
    # reg54 F1: the notice of a waiting period was kept under the name alone: renamed within the
    # period, the reader was mailed it again, and the preview showed it again.
    with project(tmp_path, web=False) as p:
        up = (p.root / "digest.toml").read_text(encoding="utf-8")
        up = up.replace('name = "ana"\n', 'name = "ana"\non_empty = "notify"\n')
        mirror = '[[sources]]\nkind = "files"\nname = "mirror"\npath = "{}"\n\n'
        up = up.replace("[defaults]", mirror.format("feed") + "[defaults]")
        down = up.replace('path = "feed"\n\n[defaults]', 'path = "unmounted"\n\n[defaults]')
        _run(p, capsys, MON, up, [])
        for name, now in (("ana", TUE), ("anna", TUE.replace("T09", "T10"))):
            config = down.replace('name = "ana"', f'name = "{name}"')
            (p.root / "digest.toml").write_text(config, "utf-8")
            shown = _preview(p, name, now)
            p.digest(capsys, "run", "--now", now)
        notices = [m for m in p.mails("ana@example.org") if "a source" in str(m["Subject"])]
        assert len(notices) == 1  # ana's, not anna's again
        assert shown == (
            "anna: nothing would be sent for the digest of 2026-12-01: the notice that a source"
            " could not be read went out already; the period waits for its sources"
        )


@pytest.mark.parametrize("fails", ["once", "for good"])
def test_preview_of_a_waiting_period_whose_notice_was_not_delivered_says_what_comes(
    tmp_path: Path, fails: str
) -> None:
    # reg54 F3: it said the notice "went out already" while its row was still pending, and a
    # run at that instant mailed it.
    write_seeds(tmp_path, "a.txt", VISION)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(alerting(tmp_path, False), store, DAY1)
        pipeline.run_once(alerting(tmp_path, True), store, DAY2)
        (row,) = [r for r in store.outbox() if r.period.startswith("notice:")]
        status = "pending" if fails == "once" else "dead"
        store.db.execute("UPDATE outbox SET status = ? WHERE id = ?", (status, row.id))
        shown = pipeline.preview(alerting(tmp_path, True), store, "ana", DAY2.replace(hour=15))
    assert isinstance(shown, str) and "is recorded, not yet delivered" in shown
    then = "a run now tries it again" if fails == "once" else "`digest retry` sends it again"
    assert then in shown and "went out" not in shown


def test_preview_of_a_skipped_waiting_period_names_the_source_that_failed(tmp_path: Path) -> None:
    # reg54 F2: its line said "no source could be read" when one of two was read.
    write_seeds(tmp_path, "a.txt", VISION)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(alerting(tmp_path, False), store, DAY1)
        down = alerting(tmp_path, True)
        ana = dataclasses.replace(down.subscribers[0], on_empty="skip")
        shown = pipeline.preview(dataclasses.replace(down, subscribers=(ana,)), store, "ana", DAY2)
    assert isinstance(shown, str) and "could not read mirror" in shown
    assert "no source could be read" not in shown


def test_a_schedule_edit_while_a_period_waits_sends_no_back_dated_notice_and_loses_no_digest(
    tmp_path: Path,
) -> None:
    # reg54 F4: a new schedule whose latest fire fell before the period told it waits sent a
    # notice dated the day before. reg55 F1: taking that period as covered ("already made")
    # lost the day's digest once the sources were back. It waits, told already; then it is made.
    write_seeds(tmp_path, "a.txt", VISION)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(alerting(tmp_path, False), store, DAY1.replace(hour=8, minute=5))
        down = alerting(tmp_path, True)
        pipeline.run_once(down, store, DAY2.replace(hour=8, minute=30))  # told: 12-01 08:00
        ana = dataclasses.replace(down.subscribers[0], schedule="45 8 * * *")
        edited = dataclasses.replace(down, subscribers=(ana,))
        at = DAY2.replace(hour=8, minute=40)  # the new schedule's latest fire: 11-30 08:45
        shown = pipeline.preview(edited, store, "ana", at)
        report = pipeline.run_once(edited, store, at)
        days = [r.day.isoformat() for r in store.outbox() if r.period.startswith("notice:")]
        assert [(s.status, s.notified) for s in report.subscribers] == [
            ("waiting for sources", False)
        ]
        assert days == ["2026-12-01"]
        assert isinstance(shown, str) and "went out already" in shown
        write_seeds(tmp_path, "b.txt", UNLEARN)
        back = dataclasses.replace(alerting(tmp_path, False), subscribers=(ana,))
        report = pipeline.run_once(back, store, at.replace(hour=9))
    assert [s.status for s in report.subscribers] == ["made"]


@pytest.mark.parametrize("stored", [True, False], ids=["stored space", "fitted on the pool"])
def test_preview_ranks_in_a_space_of_every_readers_library_as_the_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stored: bool
) -> None:
    # Words two of a library's papers share are columns; the preview had read the previewed
    # reader's library alone, the run every reader's: a paper saying sam's word had another
    # norm, and ana was previewed other scores than the run gave her (rank29 F2). So had a
    # space fitted on the pool (a store under 1000 papers), of the readers ranked in it.
    import json

    from digest import corpus
    from tests.test_ranking import load_seed_papers

    if stored:
        monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    liked = [
        {"id": f"l{i}", "title": f"Quorlith lattices {i}", "abstract": "Quorlith grows here."}
        for i in (1, 2)
    ]
    (tmp_path / "sam.jsonl").write_text("\n".join(map(json.dumps, liked)), encoding="utf-8")
    sam = dataclasses.replace(subscriber("sam", "crystal growth"), library_path="sam.jsonl")
    ana = dataclasses.replace(subscriber("ana", "differential privacy"), top_k=10)
    settings = settings_for(tmp_path, ana, sam)
    quorlith = "Differential privacy for quorlith sensors: private quorlith counts."
    write_seeds(tmp_path, "a.txt", PRIVACY, quorlith, UNLEARN, VISION)
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:
        store.add_papers(load_seed_papers(), datetime(2026, 11, 29, tzinfo=UTC))
        space = corpus.ranking_space(store, settings.subscribers, now)  # saved: no sam's word
        assert (space is not None) == stored
        shown = pipeline.preview(settings, store, "ana", now)
        pipeline.run_once(settings, store, now)
        row = next(r for r in store.outbox() if r.purpose == "digest" and r.subscriber == "ana")
    assert isinstance(shown, Message) and "quorlith sensors" in shown.text.lower()
    assert row.message is not None and shown.text == row.message.text
