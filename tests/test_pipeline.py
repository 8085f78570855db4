"""One cycle on one clock: periods from schedules and time zones, digests made once per period,
papers given once, quiet days told apart, and sources that fail."""

from __future__ import annotations

import dataclasses
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from digest import periods, pipeline
from digest.models import ChannelConfig, Profile, Settings, SourceConfig, Subscriber
from digest.state import Store
from tests.feedserver import Answer, serve

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    ("schedule", "zone", "now", "expected"),
    [
        # Weekdays at 8:00 Berlin: Sunday evening still belongs to Friday's period.
        ("0 8 * * mon-fri", "Europe/Berlin", "2026-11-29T20:00+01:00", "2026-11-27T08:00+01:00"),
        ("0 8 * * mon-fri", "Europe/Berlin", "2026-11-30T07:59+01:00", "2026-11-27T08:00+01:00"),
        ("0 8 * * mon-fri", "Europe/Berlin", "2026-11-30T08:00+01:00", "2026-11-30T08:00+01:00"),
        # The same instant is a different period in New York.
        ("0 8 * * mon-fri", "America/New_York", "2026-11-30T08:00+01:00", "2026-11-27T08:00-05:00"),
        # Across the March DST change in Berlin, 8:00 stays 8:00 local.
        ("0 8 * * *", "Europe/Berlin", "2026-03-29T09:00+02:00", "2026-03-29T08:00+02:00"),
        ("0 8 * * *", "Europe/Berlin", "2026-03-29T07:30+02:00", "2026-03-28T08:00+01:00"),
        # A monthly schedule reaches back weeks.
        ("0 6 1 * *", "UTC", "2026-11-29T00:00+00:00", "2026-11-01T06:00+00:00"),
        ("*/15 * * * *", "UTC", "2026-11-29T10:07+00:00", "2026-11-29T10:00+00:00"),
    ],
)
def test_a_period_starts_at_the_latest_fire_time_at_or_before_now(
    schedule: str, zone: str, now: str, expected: str
) -> None:
    start = periods.period_start(schedule, zone, datetime.fromisoformat(now))
    assert start == datetime.fromisoformat(expected)
    assert start is not None and start.utcoffset() == datetime.fromisoformat(expected).utcoffset()


def settings_for(tmp_path: Path, *subscribers: Subscriber, path: str | None = None) -> Settings:
    return Settings(
        path="test.toml",
        sources=(SourceConfig("seeds", "seeds", {"path": path or str(tmp_path / "seeds")}),),
        subscribers=subscribers,
    )


def subscriber(name: str, interests: str, **extra: object) -> Subscriber:
    channel = ChannelConfig("file", "file", {"dir": "out"})
    return Subscriber(name, Profile(interests=interests), (channel,), top_k=2, **extra)  # type: ignore[arg-type]


def write_seeds(tmp_path: Path, name: str, *abstracts: str) -> None:
    folder = tmp_path / "seeds"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("Test list\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


PRIVACY = "We study differential privacy for federated learning with private client updates."
UNLEARN = "Machine unlearning removes training data from models under privacy regulations."
VISION = "Diffusion models generate images from text prompts with classifier-free guidance."


@pytest.fixture(autouse=True)
def both_ways(ranking_mode: str) -> str:
    return ranking_mode


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_one_run_makes_one_digest_per_subscriber_and_delivers_it(tmp_path: Path) -> None:
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN, VISION)
    settings = settings_for(
        tmp_path,
        subscriber("ana", "differential privacy and unlearning"),
        subscriber("vic", "diffusion models generate images"),
    )
    with Store(tmp_path / "s.db") as store:
        report = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        assert report.exit_code == 0
        statuses = {s.name: (s.status, s.picked) for s in report.subscribers}
        assert statuses == {"ana": ("made", 2), "vic": ("made", 1)}
        assert len(report.outcome.sent) == 2
        assert store.runs()[0]["summary"]["papers"] == {"read": 3, "skipped": 0, "new": 3}


def test_new_papers_only_and_never_a_paper_twice(tmp_path: Path) -> None:
    write_seeds(tmp_path, "a.txt", PRIVACY, VISION)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy and unlearning"))
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        write_seeds(tmp_path, "b.txt", UNLEARN, PRIVACY)  # one new, one repeat
        report = pipeline.run_once(settings, store, datetime(2026, 12, 1, 12, tzinfo=UTC))
        (ana,) = report.subscribers
        assert (ana.status, ana.picked) == ("made", 1)
        assert report.summary()["papers"]["new"] == 1


def test_a_clock_behind_the_last_digest_makes_no_digest_out_of_order(tmp_path: Path) -> None:
    write_seeds(tmp_path, "a.txt", PRIVACY)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy and unlearning"))
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings, store, datetime(2026, 12, 2, 12, tzinfo=UTC))
        write_seeds(tmp_path, "b.txt", UNLEARN)
        # A machine that boots with an old clock: that day never had a digest, but a later did.
        for clock in (datetime(2026, 11, 30, 12, tzinfo=UTC), datetime(1971, 1, 1, tzinfo=UTC)):
            back = pipeline.run_once(settings, store, clock)
            assert [s.status for s in back.subscribers] == ["clock behind"]
            assert back.exit_code == 1
        periods_made = store.db.execute("SELECT period FROM digests").fetchall()
        assert [r[0] for r in periods_made] == ["2026-12-02T08:00:00+00:00"]
        later = pipeline.run_once(settings, store, datetime(2026, 12, 3, 12, tzinfo=UTC))
        assert [(s.status, s.picked) for s in later.subscribers] == [("made", 1)]


def test_a_clock_behind_into_a_period_that_had_its_digest_is_still_a_clock_behind(
    tmp_path: Path,
) -> None:
    # A day back lands in yesterday's period, which has its digest: that read "already made",
    # exit 0, and status showed the run ok while the clock was a day behind.
    write_seeds(tmp_path, "a.txt", PRIVACY)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy and unlearning"))
    with Store(tmp_path / "s.db") as store:
        for day in (2, 3):
            pipeline.run_once(settings, store, datetime(2026, 12, day, 12, tzinfo=UTC))
        back = pipeline.run_once(settings, store, datetime(2026, 12, 3, 7, tzinfo=UTC))
        assert [s.status for s in back.subscribers] == ["clock behind"]
        assert back.exit_code == 1
        again = pipeline.run_once(settings, store, datetime(2026, 12, 3, 13, tzinfo=UTC))
        assert [s.status for s in again.subscribers] == ["already made"]
        assert again.exit_code == 0


def made_periods(store: Store) -> list[str]:
    return [r[0] for r in store.db.execute("SELECT period FROM digests ORDER BY id").fetchall()]


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


@pytest.mark.parametrize(
    ("change", "skipped", "then", "opened"),
    [
        # 08:00 UTC made at 09:00Z; in Los Angeles the period at 12:00Z began 31 March 08:00
        # (15:00Z), before that digest: no digest for yesterday; the next is 08:00 PDT.
        (
            {"timezone": "America/Los_Angeles"},
            "2026-04-01T12:00Z",
            "2026-04-01T16:00Z",
            "2026-04-01T08:00:00-07:00",
        ),
        # 0 8 -> 0 20 at 10:00: yesterday's 20:00 lies before today's 08:00.
        ({"schedule": "0 20 * * *"}, "2026-04-01T10:00Z", "2026-04-01T20:30Z", None),
    ],
)
def test_a_new_zone_or_schedule_makes_no_back_dated_digest(
    tmp_path: Path, change: dict[str, str], skipped: str, then: str, opened: str | None
) -> None:
    write_seeds(tmp_path, "a.txt", PRIVACY)
    ana = subscriber("ana", "differential privacy and unlearning")
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings_for(tmp_path, ana), store, utc("2026-04-01T09:00Z"))
        changed = settings_for(tmp_path, dataclasses.replace(ana, **change))  # type: ignore[arg-type]
        write_seeds(tmp_path, "b.txt", UNLEARN)
        report = pipeline.run_once(changed, store, utc(skipped))
        assert [s.status for s in report.subscribers] == ["already made"]
        assert report.exit_code == 0
        assert made_periods(store) == ["2026-04-01T08:00:00+00:00"]
        later = pipeline.run_once(changed, store, utc(then))
        assert [(s.status, s.picked) for s in later.subscribers] == [("made", 1)]
        assert made_periods(store)[1] == (opened or "2026-04-01T20:00:00+00:00")


def test_a_period_that_began_before_the_last_digest_was_made_opens_none(tmp_path: Path) -> None:
    # The 08:00 digest was made late, at 20:00; a new 12:00 schedule's period began before it.
    write_seeds(tmp_path, "a.txt", PRIVACY)
    ana = subscriber("ana", "differential privacy and unlearning")
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings_for(tmp_path, ana), store, utc("2026-04-01T20:00Z"))
        noon = settings_for(tmp_path, dataclasses.replace(ana, schedule="0 12 * * *"))
        report = pipeline.run_once(noon, store, utc("2026-04-01T21:00Z"))
        assert [s.status for s in report.subscribers] == ["already made"]
        pipeline.run_once(noon, store, utc("2026-04-02T12:00Z"))
        assert made_periods(store) == ["2026-04-01T08:00:00+00:00", "2026-04-02T12:00:00+00:00"]


def test_the_repeated_hour_reopens_no_period_of_its_first_pass(tmp_path: Path) -> None:
    # Berlin falls back on 25 October 2026: 02:00-03:00 comes twice and a */15 period in the
    # second pass is the first pass's. A run at 02:50 CEST made 02:45; one at 02:05 CET finds
    # 02:00 CEST without a digest, but it began before 02:45: none for it, and 03:00 CET is next.
    write_seeds(tmp_path, "a.txt", PRIVACY)
    ana = subscriber("ana", "privacy", schedule="*/15 * * * *", timezone="Europe/Berlin")
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        pipeline.run_once(settings, store, utc("2026-10-25T02:50+02:00"))
        report = pipeline.run_once(settings, store, utc("2026-10-25T02:05+01:00"))
        assert [s.status for s in report.subscribers] == ["already made"]
        pipeline.run_once(settings, store, utc("2026-10-25T03:00+01:00"))
        assert made_periods(store) == ["2026-10-25T02:45:00+02:00", "2026-10-25T03:00:00+01:00"]


def test_quiet_days_say_which_kind_of_quiet(tmp_path: Path) -> None:
    write_seeds(tmp_path, "a.txt", VISION)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy and unlearning"))
    with Store(tmp_path / "s.db") as store:
        first = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        assert first.subscribers[0].status == "no match"
        second = pipeline.run_once(settings, store, datetime(2026, 12, 1, 12, tzinfo=UTC))
        assert second.subscribers[0].status == "nothing new"
        assert second.exit_code == 0 and store.outbox() == []


def test_when_every_source_fails_the_period_stays_open(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "privacy"), path=str(tmp_path / "gone"))
    with Store(tmp_path / "s.db") as store:
        report = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        assert report.subscribers[0].status == "waiting for sources"
        assert report.sources[0].error and report.exit_code == 1
        write_seeds(tmp_path, "a.txt", PRIVACY)
        (tmp_path / "seeds").rename(tmp_path / "gone")
        later = pipeline.run_once(settings, store, datetime(2026, 11, 30, 13, tzinfo=UTC))
        assert (later.subscribers[0].status, later.subscribers[0].picked) == ("made", 1)


def test_a_rating_given_while_the_sources_are_read_counts_in_that_runs_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ratings were taken before the sources, which a slow feed reads for minutes: a vote given
    # meanwhile (its page says the next digest follows it) counted only a digest later.
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy and unlearning"))
    reading = pipeline.ingest

    def slow_feed(*args: Any) -> Any:
        read = reading(*args)
        with Store(tmp_path / "s.db") as web:  # the reader's vote, on another connection
            (unlearn,) = [p for _, p in web.papers_after(0) if "regulations" in p.abstract]
            web.ratings.rate("ana", unlearn.id, "down", datetime(2026, 11, 30, 12, tzinfo=UTC))
        return read

    monkeypatch.setattr(pipeline, "ingest", slow_feed)
    with Store(tmp_path / "s.db") as store:
        report = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
    assert [(s.status, s.picked) for s in report.subscribers] == [("made", 1)]


LIKED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry>
    <id>http://arxiv.org/abs/2501.01234v1</id>
    <published>2025-01-02T18:00:00Z</published>
    <title>Private federated learning with tight bounds</title>
    <summary>We study differential privacy for federated learning and private updates.</summary>
    <author><name>Ada Lovelace</name></author>
  </entry>
</feed>
"""
NO_ENTRIES = '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"></feed>'


def test_a_period_stays_open_while_the_liked_papers_cannot_be_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A profile of liked papers alone: ranked without them, today's papers would all be "no
    # match", and the period closed over them for good.
    up = {"lookup": False}

    def answer(query: dict[str, str]) -> Answer:
        if "id_list" in query:
            return Answer(body=LIKED) if up["lookup"] else Answer(503)
        return Answer(body=NO_ENTRIES)

    write_seeds(tmp_path, "a.txt", PRIVACY, VISION)
    for server in serve(monkeypatch):
        server.route("/api/query", answer)
        options = {"url": f"{server.url}/api/query", "delay": 0, "retries": 0, "timeout": 2}
        arxiv = SourceConfig("arxiv", "arxiv", {**options, "categories": ["cs.LG"]})
        ana = Subscriber("ana", Profile(), (ChannelConfig("file", "file", {"dir": "out"}),))
        ana = dataclasses.replace(ana, likes=("2501.01234",), top_k=1)
        settings = dataclasses.replace(
            settings_for(tmp_path, ana),
            sources=(SourceConfig("seeds", "seeds", {"path": str(tmp_path / "seeds")}), arxiv),
        )
        with Store(tmp_path / "s.db") as store:
            first = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
            assert first.subscribers[0].status == "waiting for liked papers"
            assert first.exit_code == 1 and store.outbox() == []
            up["lookup"] = True
            later = pipeline.run_once(settings, store, datetime(2026, 11, 30, 13, tzinfo=UTC))
            assert (later.subscribers[0].status, later.subscribers[0].picked) == ("made", 1)
            (row,) = store.outbox()
            assert row.message is not None and "private client updates" in row.message.text


def test_a_liked_id_arxiv_did_not_know_yet_is_not_sent_back_once_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An author likes his own paper from the submission e-mail: arXiv's API knows no such id
    yet, and the id is not asked about again for a day. The next morning the paper is listed:
    it is the reader's own, not news."""
    import json

    def answer(query: dict[str, str]) -> Answer:
        return Answer(body=NO_ENTRIES)  # unknown to the lookup, and no listing

    def arrive(name: str, ident: str, abstract: str) -> None:
        folder = tmp_path / "papers"
        folder.mkdir(exist_ok=True)
        record = {"id": ident, "title": f"Paper {ident}", "abstract": abstract}
        (folder / f"{name}.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")

    for server in serve(monkeypatch):
        server.route("/api/query", answer)
        options = {"url": f"{server.url}/api/query", "delay": 0, "retries": 0, "timeout": 2}
        arxiv = SourceConfig("arxiv", "arxiv", {**options, "categories": ["cs.LG"]})
        files = SourceConfig("files", "files", {"path": str(tmp_path / "papers")})
        ana = dataclasses.replace(
            subscriber("ana", "differential privacy federated learning"),
            likes=("arXiv:2501.01234v1",),
            top_k=3,
        )
        settings = dataclasses.replace(settings_for(tmp_path, ana), sources=(files, arxiv))
        with Store(tmp_path / "s.db") as store:
            arrive("0", "2611.00001", VISION)
            pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
            assert any("id_list" in r.query for r in server.requests)
            arrive("1", "2501.01234", PRIVACY)
            arrive("2", "2611.00002", PRIVACY.replace("client updates", "secure aggregation"))
            pipeline.run_once(settings, store, datetime(2026, 12, 1, 9, tzinfo=UTC))
            picked = store.db.execute(
                "SELECT s.paper_id FROM sent s JOIN digests d ON d.id = s.digest_id"
                " WHERE d.period LIKE '2026-12-01%'"
            )
            assert [r[0] for r in picked] == ["2611.00002"]


def test_arxivs_window_reaches_back_before_the_last_read_so_no_listing_is_missed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """arXiv lists a Friday submission on Sunday night: a window of `days` ending at the run's
    clock had moved past it (`days = 2` lost every Monday's listing), and a machine off for nine
    days lost three days of listings with `days = 7`. The window reaches back LISTED (4 days)
    before the last successful read, whichever is earlier."""
    for server in serve(monkeypatch):
        server.route("/api/query", Answer(body=NO_ENTRIES))
        options = {"url": f"{server.url}/api/query", "delay": 0, "retries": 0, "timeout": 2}
        arxiv = SourceConfig("arxiv", "arxiv", {**options, "categories": ["cs.LG"], "days": 2})
        ana = subscriber("ana", "differential privacy federated learning")
        settings = dataclasses.replace(settings_for(tmp_path, ana), sources=(arxiv,))
        with Store(tmp_path / "s.db") as store:
            for day in (20, 21, 30):
                pipeline.run_once(settings, store, datetime(2026, 11, day, 9, tzinfo=UTC))
        windows = [r.query["search_query"].rpartition("submittedDate:")[2] for r in server.requests]
        assert windows == [
            "[202611180900 TO 202611200900]",  # no read before: `days`
            "[202611160900 TO 202611210900]",  # 4 days before the last read
            "[202611170900 TO 202611300900]",  # nine days off: from 4 days before the last read
        ]


def test_a_library_paper_stored_under_its_arxiv_id_is_not_picked_by_its_doi(tmp_path: Path) -> None:
    """The library knows the journal version (a DOI, its own title); the arXiv record that names
    that DOI is stored under its arXiv id, and read back without its keys it had been picked."""
    from digest.models import Paper

    write_seeds(tmp_path, "a.txt", VISION)
    journal = Paper("10.1016/j.cell.2019.05.031", "Federated privacy, the journal version", "x")
    reader = dataclasses.replace(
        subscriber("ana", "differential privacy federated learning"),
        profile=Profile(interests="differential privacy federated learning", library=(journal,)),
    )
    settings = settings_for(tmp_path, reader)
    with Store(tmp_path / "s.db") as store:
        preprint = Paper("2505.00013", "Private federated learning", PRIVACY,
                         aliases=("10.1016/j.cell.2019.05.031",))  # fmt: skip
        store.add_papers([preprint], datetime(2026, 11, 29, 12, tzinfo=UTC))
        report = pipeline.run_once(settings, store, datetime(2026, 11, 30, 12, tzinfo=UTC))
        assert report.subscribers[0].picked == 0


def test_the_ranking_space_is_every_readers_whoever_is_ranked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The space had held the words of the readers ranked when it was fitted: bob's alert pass
    # fitted it for his words alone, ana's digest then lacked hers and fitted it again (so after
    # every refit for growth); and a paper's score hung on who else was ranked (rank29 F2).
    from digest import corpus
    from tests.test_ranking import load_seed_papers

    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    ana = subscriber("ana", "quorlith lattices")
    bob = subscriber("bob", "zentrovane plasma", schedule="0 20 * * *", alert_threshold=0.9)
    settings = settings_for(tmp_path, ana, bob)
    write_seeds(tmp_path, "a.txt", PRIVACY, UNLEARN, VISION)
    caplog.set_level(logging.INFO, logger="digest.corpus")
    with Store(tmp_path / "s.db") as store:
        store.add_papers(load_seed_papers(), datetime(2026, 11, 28, tzinfo=UTC))
        for day, hour in [(29, 9), (29, 21), (30, 9), (30, 21)]:
            write_seeds(tmp_path, f"{day}-{hour}.txt", f"Plasma lattices, case {day} {hour}.")
            pipeline.run_once(settings, store, datetime(2026, 11, day, hour, tzinfo=UTC))
        space = corpus.ranking_space(store, settings.subscribers, datetime(2026, 12, 1, tzinfo=UTC))
    fits = [r for r in caplog.records if "fitting it on" in r.getMessage()]
    assert len(fits) == 1
    assert space is not None and {"quorlith", "zentrovane"} <= set(space.names)


def test_a_readers_digest_is_of_its_own_period_whoever_else_is_due(tmp_path: Path) -> None:
    # Every due reader had been scored against one pool, the papers since the oldest of their
    # last digests: on a weekly reader's day, a daily reader's scale counted the whole week's
    # papers on its topic (0.41 -> 0.40), and her preview, of her own day, differed from the run.
    topics = [
        "Differential privacy for federated learning of {} models.",
        "Private aggregation of {} gradients under differential privacy.",
        "Membership inference attacks against {} classifiers.",
    ]
    ana = dataclasses.replace(subscriber("ana", "differential privacy in federated learning"))
    ana = dataclasses.replace(ana, top_k=5)
    bob = subscriber("bob", "differential privacy", schedule="0 8 * * 1")  # Mondays
    texts: dict[str, str] = {}
    for pair in ([ana, bob], [ana]):
        folder = tmp_path / str(len(pair))
        folder.mkdir()
        settings = settings_for(folder, *pair)
        with Store(folder / "s.db") as store:
            for day in range(23, 31):  # Monday 2026-11-23 to Monday 2026-11-30
                some = [t.format(f"w{day}x{i}") + f" Case {i}." for i, t in enumerate(topics * 13)]
                write_seeds(folder, f"{day}.txt", *some)
                shown = pipeline.preview(
                    settings, store, "ana", datetime(2026, 11, day, 9, tzinfo=UTC)
                )
                pipeline.run_once(settings, store, datetime(2026, 11, day, 9, tzinfo=UTC))
            rows = [r for r in store.outbox() if r.subscriber == "ana" and r.purpose == "digest"]
        assert shown is not None and not isinstance(shown, str) and rows[-1].message is not None
        assert shown.text == rows[-1].message.text  # the preview of her day, as the run
        texts[str(len(pair))] = rows[-1].message.text
    assert texts["2"] == texts["1"]
