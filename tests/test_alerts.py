"""Alerts and quiet-period notices: a strong match, a followed author or an alert keyword goes out
at once, once per paper, within a daily cap in the subscriber's own day, and the next digest
leaves it out; a quiet period says which quiet it is when the subscriber asks for it."""

from __future__ import annotations

import email
import email.policy
from dataclasses import replace
from pathlib import Path

import pytest
from timeline import (
    PRIVACY,
    ROBOTS,
    VISION,
    alerted,
    arrive,
    at,
    given,
    paper,
    settings_for,
    subscriber,
)

from digest import alerts, config, pipeline
from digest.cli import reports
from digest.models import (
    ChannelConfig,
    ConfigError,
    Delivery,
    Paper,
    Receipt,
    Settings,
    SourceConfig,
    StateError,
    Subscriber,
)
from digest.scheduler import one_line
from digest.state import Store

MONDAY = "2026-11-30"
INTERESTS = "differential privacy in federated learning"


@pytest.fixture(autouse=True)
def both_ways(ranking_mode: str) -> str:
    return ranking_mode


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def variants(*numbers: int) -> list[Paper]:
    """Papers p<n> on the reader's topic, each a little different."""
    return [paper(f"p{i}", PRIVACY.replace("noise", f"noise variant {i}")) for i in numbers]


def first_digest(tmp_path: Path, settings: Settings, store: Store, when: str) -> None:
    """Every timeline starts with a digest made, so later papers are news, not a backlog."""
    arrive(tmp_path / "papers", "0-start", paper("p0", ROBOTS))
    pipeline.run_once(settings, store, at(when))


def read_eml(path: Path) -> email.message.EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, email.message.EmailMessage)
    return message


def test_a_strong_match_goes_out_at_once_and_the_next_digest_leaves_it_out(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, alert_threshold=0.35)
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY), paper("p2", VISION))
        report = pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        assert [(a.subscriber, a.made, a.held) for a in report.alerts] == [("ana", ["p1"], 0)]
        assert alerted(store) == [("ana", "p1", MONDAY)]
        (reasons,) = [a["reasons"] for a in store.journal.alerts()]
        assert reasons[0].startswith("score ") and "alert threshold" in reasons[0]
        (row,) = [r for r in store.outbox() if r.purpose == "alert"]
        assert (row.period, row.status) == ("alert:p1", "sent")
        eml = read_eml(tmp_path / "out" / MONDAY / f"ana.alert-{row.id}.eml")
        assert (
            eml["Subject"]
            == "Paper alert for ana: Differential privacy for federated learning (p1)"
        )
        assert "why now: score" in eml.get_body(("plain",)).get_content()
        # Tuesday's digest: the new privacy paper, never the one announced on Monday.
        arrive(tmp_path / "papers", "2", paper("p3", PRIVACY.replace("noise", "clipping")))
        pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert given(store, "ana", "2026-12-01T08:00:00+00:00") == ["p3"]
        assert alerted(store) == [("ana", "p1", MONDAY)]


def test_a_followed_author_or_an_alert_keyword_is_an_alert_whatever_the_score(
    tmp_path: Path,
) -> None:
    ana = subscriber(
        "ana", INTERESTS, authors=("Dwork, Cynthia",), alert_keywords=("membership inference",)
    )
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(
            tmp_path / "papers",
            "1",
            paper("by-dwork", ROBOTS.replace("walk", "run"), authors=("Cynthia Dwork", "B. Lee")),
            paper("keyword", "Membership inference attacks reveal what a model was trained on."),
            paper("strong", PRIVACY),  # a strong match, but ana set no alert_threshold
        )
        pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        reasons = {a["paper_id"]: a["reasons"] for a in store.journal.alerts()}
        assert reasons == {
            "by-dwork": ["by Cynthia Dwork, whom you follow"],
            "keyword": ["mentions “membership inference”"],
        }


def test_a_followed_name_alerts_for_its_author_with_a_middle_initial(tmp_path: Path) -> None:
    """A followed "Mary Ma" had matched only the exact name: a feed's "Mary A. MA" was no alert
    (reg42 F10). A followed initial ("J. Doe") is no given name: no alert for every Jane or John
    Doe (rank25 F3), one for "J. R. Doe"; never the other way."""
    ana = subscriber("ana", INTERESTS, authors=("Mary Ma", "J. Doe", "Ada Lovelace"))
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        robots = [ROBOTS.replace("walk", w) for w in ("run", "jump", "climb", "swim", "crawl")]
        arrive(
            tmp_path / "papers",
            "1",
            paper("ma", robots[0], authors=("Jane Roe", "Mary A. MA")),
            paper("doe", robots[1], authors=("J. R. Doe", "Jane Doe")),
            paper("ann", robots[2], authors=("Mary Ann Ma",)),  # another person
            paper("initial", robots[3], authors=("A. Lovelace",)),  # feeds abbreviate
            paper("first", robots[4], authors=("A. J. Doe",)),  # another first name
        )
        pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        reasons = {a["paper_id"]: a["reasons"] for a in store.journal.alerts()}
        assert reasons == {
            "ma": ["by Mary A. MA, whom you follow"],
            "doe": ["by J. R. Doe, whom you follow"],
        }


def test_an_excluded_word_beats_an_alert_keyword(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, alert_keywords=("privacy",))
    ana = replace(ana, profile=replace(ana.profile, exclude=("protein",)))
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("p1", "Privacy of protein structure data."))
        pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        assert alerted(store) == []


def test_a_paper_is_alerted_at_most_once_however_often_it_is_read(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, alert_threshold=0.35)
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
        for hour in ("10", "10", "11", "12"):  # the source serves p1 again every time
            pipeline.run_once(settings, store, at(f"{MONDAY}T{hour}:00Z"))
        arrive(tmp_path / "papers", "1-again", paper("p1", PRIVACY))  # and from another file
        pipeline.run_once(settings, store, at(f"{MONDAY}T13:00Z"))
        assert alerted(store) == [("ana", "p1", MONDAY)]
        assert [r.period for r in store.outbox() if r.purpose == "alert"] == ["alert:p1"]


def test_the_daily_cap_counts_the_subscribers_own_day_and_the_rest_wait_for_the_digest(
    tmp_path: Path,
) -> None:
    ben = subscriber(
        "ben", INTERESTS, timezone="America/New_York", alert_threshold=0.3, max_alerts_per_day=2
    )
    settings = settings_for(tmp_path, ben)
    privacy = variants(*range(1, 6))
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, "2026-11-30T14:00Z")  # 9:00 in New York
        # 22:00 in New York: three matches, two alerts; the third waits for the digest.
        arrive(tmp_path / "papers", "1", *privacy[:3])
        report = pipeline.run_once(settings, store, at("2026-12-01T03:00Z"))
        assert [(len(a.made), a.held) for a in report.alerts] == [(2, 1)]
        assert "2 alerts, 1 held for the digest (daily cap)" in one_line(report)  # serve's log
        # 23:30, still Monday in New York: the cap is reached.
        arrive(tmp_path / "papers", "2", privacy[3])
        report = pipeline.run_once(settings, store, at("2026-12-01T04:30Z"))
        assert [(a.made, a.held) for a in report.alerts] == [([], 1)]
        # 00:30 on Tuesday in New York (still Tuesday 05:30 in UTC): a new day, a new allowance.
        arrive(tmp_path / "papers", "3", privacy[4])
        report = pipeline.run_once(settings, store, at("2026-12-01T05:30Z"))
        assert [a.made for a in report.alerts] == [["p5"]]
        days = [day for _, _, day in alerted(store)]
        assert days == ["2026-11-30", "2026-11-30", "2026-12-01"]
        # Tuesday 8:00 in New York: the digest carries the held papers, not the alerted ones.
        report = pipeline.run_once(settings, store, at("2026-12-01T13:00Z"))
        assert "digests: ben (0 + 2 held alerts)" in one_line(report)
        held = {"p1", "p2", "p3", "p4"} - {pid for _, pid, _ in alerted(store)}
        assert set(given(store, "ben", "2026-12-01T08:00:00-05:00")) == held


def test_no_alert_settings_or_a_cap_of_zero_means_no_alerts(tmp_path: Path) -> None:
    quiet = subscriber("quiet", INTERESTS)
    capped = subscriber("capped", INTERESTS, alert_threshold=0.1, max_alerts_per_day=0)
    settings = settings_for(tmp_path, quiet, capped)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
        report = pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        assert report.alerts == [] and alerted(store) == []
        pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))  # and none held for a digest
        assert store.journal.held_counts() == {}


class Recorder:
    """A chat-like channel that keeps what it is given: alerts use the subscriber's channels."""

    kind = "memory"
    seen: list[Delivery] = []

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        pass

    def send(self, delivery: Delivery) -> Receipt:
        Recorder.seen.append(delivery)
        return Receipt("memory", f"#{delivery.id}")


def test_an_alert_goes_through_whatever_channel_the_subscriber_has(tmp_path: Path) -> None:
    ana = replace(
        subscriber("ana", INTERESTS, alert_threshold=0.35),
        channels=(ChannelConfig("memory", "memory"),),
    )
    settings = settings_for(tmp_path, ana)
    Recorder.seen = []
    with Store(tmp_path / "s.db") as store:
        arrive(tmp_path / "papers", "0-start", paper("p0", ROBOTS))
        pipeline.run_once(settings, store, at(f"{MONDAY}T09:00Z"), channels={"memory": Recorder})
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
        pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"), channels={"memory": Recorder})
    alert = Recorder.seen[-1]
    assert (alert.purpose, alert.period) == ("alert", "alert:p1")
    # A chat channel lays it out from the entries: one paper, with why it could not wait.
    assert [e.title for e in alert.message.entries] == [
        "Differential privacy for federated learning (p1)"
    ]
    assert alert.message.footer.startswith("why now: score")


def test_a_quiet_period_is_told_in_one_line_when_asked(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, on_empty="notify")
    bob = subscriber("bob", INTERESTS)  # on_empty = "skip", the default
    settings = settings_for(tmp_path, ana, bob)
    with Store(tmp_path / "s.db") as store:
        arrive(tmp_path / "papers", "0", paper("p0", ROBOTS))
        monday = pipeline.run_once(settings, store, at(f"{MONDAY}T09:00Z"))
        tuesday = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert [
            (s.name, s.status, s.notified) for s in monday.subscribers + tuesday.subscribers
        ] == [
            ("ana", "no match", True),
            ("bob", "no match", False),
            ("ana", "nothing new", True),
            ("bob", "nothing new", False),
        ]
        rows = store.outbox()
        assert [(r.subscriber, r.purpose, r.status) for r in rows] == [
            ("ana", "notice", "sent")
        ] * 2
        subjects = [r.message.subject for r in rows]
        assert subjects == [
            "Paper digest for ana — 2026-11-30: nothing matched",
            "Paper digest for ana — 2026-12-01: no new papers",
        ]
        assert [r.message.text.strip().count("\n") for r in rows] == [0, 0]  # one line each
        assert store.runs()[0]["summary"]["subscribers"]["ana"]["notified"] is True


def test_a_period_whose_sources_failed_is_told_once_and_still_gets_its_digest(
    tmp_path: Path,
) -> None:
    ana = subscriber("ana", INTERESTS, on_empty="notify")
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        for hour in ("09", "10"):  # the papers folder does not exist yet
            report = pipeline.run_once(settings, store, at(f"{MONDAY}T{hour}:00Z"))
            assert report.subscribers[0].status == "waiting for sources"
        (row,) = store.outbox()
        assert row.purpose == "notice" and row.period == "notice:2026-11-30T08:00:00+00:00"
        assert row.message.text.strip() == (
            "No digest yet: could not read papers. It follows when a source is back."
        )
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
        report = pipeline.run_once(settings, store, at(f"{MONDAY}T11:00Z"))
        assert (report.subscribers[0].status, report.subscribers[0].picked) == ("made", 1)


def test_a_quiet_period_names_the_source_that_could_not_be_read(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, on_empty="notify")
    broken = SourceConfig("files", "broken", {"path": str(tmp_path / "nowhere")})
    settings = settings_for(tmp_path, ana)
    settings = replace(settings, sources=settings.sources + (broken,))
    with Store(tmp_path / "s.db") as store:
        arrive(tmp_path / "papers", "0", paper("p0", ROBOTS))
        pipeline.run_once(settings, store, at(f"{MONDAY}T09:00Z"))
        (row,) = store.outbox()
        assert row.message.text.strip() == (
            "New papers arrived, but none matched your interests closely enough. "
            "(Could not read: broken.)"
        )


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("on_empty = 'always'", "subscribers.alice.on_empty: must be 'skip' or 'notify'"),
        ("max_alerts_per_day = -1", "subscribers.alice.max_alerts_per_day: must be 0"),
        ("alert_keywords = 'lora'", "subscribers.alice.alert_keywords: must be a list of strings"),
    ],
)
def test_alert_and_quiet_settings_are_checked_in_one_line(
    tmp_path: Path, extra: str, expected: str
) -> None:
    path = tmp_path / "digest.toml"
    path.write_text(
        f"[[subscribers]]\nname = 'alice'\ninterests = 'privacy'\n{extra}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError, match=expected):
        config.load(path, environ={})


def test_alert_and_quiet_settings_are_read_and_inherited(tmp_path: Path) -> None:
    path = tmp_path / "digest.toml"
    path.write_text(
        "[defaults]\non_empty = 'notify'\nmax_alerts_per_day = 2\n"
        "[[subscribers]]\nname = 'alice'\ninterests = 'privacy'\n"
        "alert_threshold = 0.4\nalert_keywords = ['membership inference']\n",
        encoding="utf-8",
    )
    (alice,) = config.load(path, environ={}).subscribers
    assert (alice.on_empty, alice.max_alerts_per_day) == ("notify", 2)
    assert (alice.alert_threshold, alice.alert_keywords) == (0.4, ("membership inference",))


def test_a_period_whose_matches_all_went_out_as_alerts_says_so(tmp_path: Path) -> None:
    """Not "no new papers" nor "nothing matched": the papers came and matched, as alerts."""
    ana = subscriber("ana", INTERESTS, alert_threshold=0.35, on_empty="notify")
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
        pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        arrive(tmp_path / "papers", "2", paper("p2", VISION))  # and one that matches nothing
        pipeline.run_once(settings, store, at(f"{MONDAY}T11:00Z"))
        assert alerted(store) == [("ana", "p1", MONDAY)]
        tuesday = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert [(s.status, s.notified) for s in tuesday.subscribers] == [("alerted", True)]
        assert "ana  alerted: what matched went out as alerts" in reports.describe(tuesday)
        row = store.outbox()[-1]
        assert row.message.subject == "Paper digest for ana — 2026-12-01: nothing beyond the alerts"
        assert row.message.text.strip() == (
            "Every new paper that matched your interests went out as an alert since your last "
            "digest."
        )
        # Wednesday: nothing came at all, and that is what it says.
        wednesday = pipeline.run_once(settings, store, at("2026-12-02T09:00Z"))
        assert [s.status for s in wednesday.subscribers] == ["nothing new"]


def test_an_alert_pass_cut_short_still_keeps_its_alerts_out_of_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first alert pass fails after its first alert (the state database locked, the process
    killed): that alert went out, so the next digest must not give the paper again."""
    ana = subscriber("ana", INTERESTS, alert_threshold=0.3)
    settings = settings_for(tmp_path, ana)
    privacy = variants(1, 2)
    real = alerts.render.render_alert
    calls: list[str] = []

    def second_fails(*args: object, **kwargs: object) -> object:
        calls.append("render")
        if len(calls) == 2:
            raise StateError("s.db: database is locked")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *privacy)
        monkeypatch.setattr(alerts.render, "render_alert", second_fails)
        with pytest.raises(StateError):
            pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        monkeypatch.setattr(alerts.render, "render_alert", real)
        (first,) = [pid for _, pid, _ in alerted(store)]
        pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert first not in given(store, "ana", "2026-12-01T08:00:00+00:00")
        assert len(alerted(store) + given(store, "ana", "2026-12-01T08:00:00+00:00")) == 2


def test_a_clock_behind_the_last_digest_makes_no_alert_until_it_is_right_again(
    tmp_path: Path,
) -> None:
    """A clock stepped back a day (a machine booting before NTP, a --now in the past) would date
    alerts on a day that is over, with that day's cap still unused: a few a day no more."""
    ana = subscriber("ana", INTERESTS, alert_threshold=0.3, max_alerts_per_day=2)
    settings = settings_for(tmp_path, ana)
    privacy = variants(*range(1, 5))
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *privacy[:2])
        report = pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        assert [len(a.made) for a in report.alerts] == [2]
        arrive(tmp_path / "papers", "2", *privacy[2:])
        report = pipeline.run_once(settings, store, at("2026-11-29T10:00Z"))
        assert [s.status for s in report.subscribers] == ["clock behind"]
        assert report.exit_code == 1
        assert [a.made for a in report.alerts] == []
        assert [day for _, _, day in alerted(store)] == [MONDAY, MONDAY]
        # The clock right again, 7:00 on Tuesday: the papers it held back are alerted then.
        report = pipeline.run_once(settings, store, at("2026-12-01T07:00Z"))
        assert sorted(pid for a in report.alerts for pid in a.made) == ["p3", "p4"]
        assert [day for _, _, day in alerted(store)][2:] == ["2026-12-01"] * 2


def test_a_clock_behind_the_last_alert_day_makes_no_alert_either(tmp_path: Path) -> None:
    """A weekly digest: the clock steps back from Wednesday to Tuesday, in the same period."""
    ana = subscriber("ana", INTERESTS, alert_threshold=0.3, max_alerts_per_day=1)
    settings = settings_for(tmp_path, replace(ana, schedule="0 8 * * mon"))
    privacy = variants(1, 2)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", privacy[0])
        pipeline.run_once(settings, store, at("2026-12-02T10:00Z"))  # Wednesday
        arrive(tmp_path / "papers", "2", privacy[1])
        report = pipeline.run_once(settings, store, at("2026-12-01T10:00Z"))  # Tuesday again
        assert [a.made for a in report.alerts] == []
        assert alerted(store) == [("ana", "p1", "2026-12-02")]
        report = pipeline.run_once(settings, store, at("2026-12-03T10:00Z"))  # Thursday
        assert [a.made for a in report.alerts] == [["p2"]]


def test_a_move_west_is_no_clock_behind_for_alerts(tmp_path: Path) -> None:
    """Berlin to New York: the new zone's date was earlier than the last alert's Berlin date,
    which read as a clock behind, and matching papers waited 5 hours for their alert."""
    ana = subscriber("ana", INTERESTS, alert_threshold=0.3, max_alerts_per_day=5)
    berlin = settings_for(tmp_path, replace(ana, timezone="Europe/Berlin"))
    privacy = variants(1, 2)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, berlin, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", privacy[0])
        pipeline.run_once(berlin, store, at("2026-11-30T23:30Z"))  # 00:30 on Dec 1 in Berlin
        assert alerted(store) == [("ana", "p1", "2026-12-01")]
        new_york = settings_for(tmp_path, replace(ana, timezone="America/New_York"))
        pipeline.run_once(new_york, store, at("2026-11-30T23:40Z"))  # the new zone's digest
        arrive(tmp_path / "papers", "2", privacy[1])
        report = pipeline.run_once(new_york, store, at("2026-11-30T23:45Z"))  # 18:45 on Nov 30
        assert [a.made for a in report.alerts] == [["p2"]]


# --- held alerts: nothing an alert rule matched is lost -----------------------------------------

MIA = "Membership inference attacks on legged robots that learn to walk over rough terrain"


def digest_text(tmp_path: Path, day: str, name: str) -> str:
    return read_eml(tmp_path / "out" / day / f"{name}.eml").get_body(("plain",)).get_content()


def test_every_held_alert_goes_into_the_next_digest_ahead_of_the_picks_beyond_top_k(
    tmp_path: Path,
) -> None:
    """100 matches over the daily cap and top_k = 5: the digest shows all 100, then its 5 picks;
    a keyword match scoring under min_score is shown too. Nothing is shown twice."""
    ana = subscriber(
        "ana", INTERESTS, alert_keywords=("membership inference",), max_alerts_per_day=1, top_k=5
    )
    settings = settings_for(tmp_path, ana)
    matches = [paper(f"m{i:03}", f"{MIA}, variant {i}.") for i in range(101)]
    privacy = variants(*range(8))
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *matches, *privacy)
        monday = pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        ((alerted_id,),) = [a.made for a in monday.alerts]
        assert [a.held for a in monday.alerts] == [100]
        assert "alerts: " + alerted_id + "; 100 more held for the next digest" in reports.describe(
            monday
        )
        tuesday = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        (made,) = tuesday.subscribers
        assert (made.status, made.held, made.picked) == ("made", 100, 5)
        carried = set(given(store, "ana", "2026-12-01T08:00:00+00:00"))
        held_ids = {m["id"] for m in matches} - {alerted_id}
        assert held_ids < carried and len(carried - held_ids) == 5  # and 5 ranked picks
        assert alerted_id not in carried
        text = digest_text(tmp_path, "2026-12-01", "ana")
        assert "100 held alerts, then 5 new papers" in text
        assert "Held alerts: 100 papers that matched your alert rules" in text
        assert text.count("alert: mentions “membership inference”; held: the daily cap") == 100
        assert all(f"id {i}" in text for i in held_ids)
        held_part, picks_part = text.split("Ranked picks: 5 new papers, best match first")
        assert all(f"id {i}" in held_part for i in held_ids)
        assert picks_part.count(" · id p") == 5 and "101. " in picks_part  # ranks run on
        assert store.journal.held_counts() == {}
        # Wednesday: nothing new, and none of them again.
        wednesday = pipeline.run_once(settings, store, at("2026-12-02T09:00Z"))
        assert [s.status for s in wednesday.subscribers] == ["nothing new"]


def test_a_digest_carries_the_best_hundred_held_alerts_and_says_how_many_were_left_out(
    tmp_path: Path,
) -> None:
    """A monthly digest of a broad alert rule carried thousands of held alerts, 4 KB each: past
    a relay's 10 MB the whole digest went dead. The best 100 go in, the rest are said."""
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",),
                     max_alerts_per_day=1, top_k=5)  # fmt: skip
    settings = settings_for(tmp_path, ana)
    matches = [paper(f"m{i:03}", f"{MIA}, variant {i}.") for i in range(131)]
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *matches, *variants(*range(8)))
        monday = pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        assert [a.held for a in monday.alerts] == [130]
        tuesday = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert [(s.status, s.held, s.picked) for s in tuesday.subscribers] == [("made", 100, 5)]
        text = digest_text(tmp_path, "2026-12-01", "ana")
        assert "The best 100 are here; 30 more were left out" in " ".join(text.split())
        assert text.count("held: the daily cap") == 100
        assert store.journal.held_counts() == {}
        wednesday = pipeline.run_once(settings, store, at("2026-12-02T09:00Z"))
        assert [s.status for s in wednesday.subscribers] == ["nothing new"]


def keyword_matches(*numbers: int) -> list[Paper]:
    """Papers m<n> on the reader's topic that name its alert keyword, each a little different."""
    text = "Membership inference attacks on differential privacy in federated learning"
    return [paper(f"m{i}", f"{text}, watermark number {i}. {PRIVACY}") for i in numbers]


@pytest.mark.parametrize("route", ["cap", "with the digest"])
def test_held_alerts_past_the_most_a_digest_carries_are_candidates_of_its_picks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, route: str
) -> None:
    """Past the HELD_MOST held alerts a digest carries, the other matches had been kept out of
    the ranked picks too: never delivered, though top_k had room, and the next day said "nothing
    new" (chan1 F1). They are picks as any paper: scored, explained, given once."""
    monkeypatch.setattr(alerts, "HELD_MOST", 3)
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",),
                     max_alerts_per_day=1, top_k=10)  # fmt: skip
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *keyword_matches(*range(8)), *variants(1, 2))
        if route == "cap":  # one alerted, seven held over the daily cap
            pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        tuesday = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        sent_alone = {pid for _, pid, _ in alerted(store)}
        held = {f"m{i}" for i in range(8)} - sent_alone
        assert len(held) == (7 if route == "cap" else 8)
        (made,) = tuesday.subscribers
        assert (made.status, made.held, made.picked) == ("made", 3, len(held) - 3 + 2)
        carried = set(given(store, "ana", "2026-12-01T08:00:00+00:00"))
        assert carried == held | {"p1", "p2"} and not carried & sent_alone
        text = " ".join(digest_text(tmp_path, "2026-12-01", "ana").split())
        assert "left out" not in text and text.count("alert: mentions") == 3
        picks_part = text.split("Ranked picks:")[1]
        assert sum(f"id {pid} " in picks_part for pid in held) == len(held) - 3
        assert store.journal.held_counts() == {}
        wednesday = pipeline.run_once(settings, store, at("2026-12-02T09:00Z"))
        assert [s.status for s in wednesday.subscribers] == ["nothing new"]
        rows = store.db.execute("SELECT paper_id FROM sent WHERE subscriber = 'ana'").fetchall()
        assert sorted(r[0] for r in rows) == sorted(carried)  # each once, none alerted


def test_a_digest_says_how_many_held_alerts_are_neither_carried_nor_picked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With top_k smaller than the held alerts past the most it carries, those the ranking does
    not pick are left out, and the digest says how many: not those among its picks."""
    monkeypatch.setattr(alerts, "HELD_MOST", 3)
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",), top_k=2)
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *keyword_matches(*range(8)))
        tuesday = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert [(s.status, s.held, s.picked) for s in tuesday.subscribers] == [("made", 3, 2)]
        carried = set(given(store, "ana", "2026-12-01T08:00:00+00:00"))
        left = {f"m{i}" for i in range(8)} - carried
        assert len(carried) == 5 and len(left) == 3
        text = " ".join(digest_text(tmp_path, "2026-12-01", "ana").split())
        assert "The best 3 are here; 3 more were left out" in text
        assert not any(f"id {pid} " in text for pid in left)


def test_held_alerts_past_the_most_alone_wait_with_the_digest_while_every_source_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Candidates of the picks now, they are still no news of the day: with every source down
    the period waits, as for the held alerts it carries; when a source is back, all go out."""
    monkeypatch.setattr(alerts, "HELD_MOST", 1)
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",),
                     max_alerts_per_day=1, on_empty="notify")  # fmt: skip
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *keyword_matches(1, 2, 3))
        pipeline.run_once(settings, store, at("2026-12-01T07:00Z"))  # one sent, two held (cap)
        (tmp_path / "papers").rename(tmp_path / "gone")
        report = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert report.subscribers[0].status == "waiting for sources"
        (tmp_path / "gone").rename(tmp_path / "papers")
        report = pipeline.run_once(settings, store, at("2026-12-01T10:00Z"))
        assert [(s.status, s.held, s.picked) for s in report.subscribers] == [("made", 1, 1)]


def test_preview_shows_the_held_alerts_past_the_most_among_the_picks_as_the_run_gives_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(alerts, "HELD_MOST", 3)
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",), top_k=10)
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *keyword_matches(*range(6)), *variants(1))
        message = pipeline.preview(settings, store, "ana", at("2026-12-01T09:00Z"))
        assert not isinstance(message, str) and "left out" not in message.text
        shown = [e.paper_id for e in message.entries]
        pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert sorted(shown) == given(store, "ana", "2026-12-01T08:00:00+00:00")
        assert len(shown) == 7


@pytest.mark.parametrize(
    ("rule", "why"),
    [
        ({"alert_keywords": ("membership inference",)}, "mentions “membership inference”"),
        ({"authors": ("Dwork, Cynthia",)}, "by Cynthia Dwork, whom you follow"),
    ],
)
def test_an_alert_match_arriving_with_its_digest_is_in_it_whatever_its_score(
    tmp_path: Path, rule: dict, why: str
) -> None:
    """No alert pass saw it (a daily `digest run`): the digest goes first and carries it, though
    it scores under min_score; it is not sent as an alert beside the digest."""
    ana = subscriber("ana", INTERESTS, **rule)
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        weak = paper("weak", f"{MIA}.", authors=("Cynthia Dwork",))
        arrive(tmp_path / "papers", "1", weak, paper("strong", PRIVACY))
        report = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert [(s.status, s.held, s.picked) for s in report.subscribers] == [("made", 1, 1)]
        assert given(store, "ana", "2026-12-01T08:00:00+00:00") == ["strong", "weak"]
        assert alerted(store) == []
        text = digest_text(tmp_path, "2026-12-01", "ana")
        assert f"alert: {why}" in text
        assert text.index("(weak)") < text.index("Ranked picks") < text.index("(strong)")
        assert "ana  1 held alert first, then 1 picked, top score" in reports.describe(report)


def test_a_digest_of_held_alerts_only_is_made_and_says_so(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",), on_empty="notify")
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("weak", f"{MIA}."))
        report = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert [(s.status, s.held, s.picked, s.notified) for s in report.subscribers] == [
            ("made", 1, 0, False)
        ]
        assert "ana  1 held alert, no pick" in reports.describe(report)
        (row,) = [r for r in store.outbox() if r.purpose == "digest" and r.day.day == 1]
        assert row.message.subject == "Paper digest for ana — 2026-12-01: 1 held alert"
        assert "No other new paper matched your interests closely enough." in row.message.text


def test_a_chat_channel_gets_the_held_alerts_under_a_heading_of_their_own(tmp_path: Path) -> None:
    ana = replace(
        subscriber("ana", INTERESTS, alert_keywords=("membership inference",)),
        channels=(ChannelConfig("memory", "memory"),),
    )
    settings = settings_for(tmp_path, ana)
    Recorder.seen = []
    with Store(tmp_path / "s.db") as store:
        arrive(tmp_path / "papers", "0-start", paper("p0", ROBOTS))
        pipeline.run_once(settings, store, at(f"{MONDAY}T09:00Z"), channels={"memory": Recorder})
        arrive(tmp_path / "papers", "1", paper("weak", f"{MIA}."), paper("strong", PRIVACY))
        pipeline.run_once(settings, store, at("2026-12-01T09:00Z"), channels={"memory": Recorder})
    entries = Recorder.seen[-1].message.entries
    assert [(e.rank, e.paper_id) for e in entries] == [(1, "weak"), (2, "strong")]
    assert [e.section for e in entries] == [
        "Held alerts: 1 paper that matched your alert rules, held for this digest",
        "Ranked picks: 1 new paper",
    ]
    assert entries[0].because == "alert: mentions “membership inference”"


def test_preview_shows_the_held_alerts_the_digest_will_carry(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, alert_threshold=0.3, max_alerts_per_day=1)
    settings = settings_for(tmp_path, ana)
    privacy = variants(1, 2)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", *privacy)
        pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        (held,) = {"p1", "p2"} - {pid for _, pid, _ in alerted(store)}
        message = pipeline.preview(settings, store, "ana", at("2026-12-01T09:00Z"))
        assert "Held alerts: 1 paper that matched your alert rules" in message.text
        assert message.entries[0].paper_id == held
        assert store.journal.held_counts() == {"ana": 1}  # still waiting: preview changes nothing


def test_a_held_alert_waits_with_the_digest_while_every_source_is_down(tmp_path: Path) -> None:
    """Alone, it made a digest that hid the failure: no notice, the period closed, and no
    digest followed when the sources came back."""
    ana = subscriber(
        "ana", INTERESTS, alert_keywords=("membership inference",), max_alerts_per_day=1
    )
    settings = settings_for(tmp_path, replace(ana, on_empty="notify"))
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        arrive(tmp_path / "papers", "1", paper("m1", f"{MIA}."), paper("m2", f"{MIA} again."))
        pipeline.run_once(settings, store, at("2026-12-01T07:00Z"))  # one sent, one held (cap)
        (tmp_path / "papers").rename(tmp_path / "gone")
        report = pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert report.subscribers[0].status == "waiting for sources"
        (tmp_path / "gone").rename(tmp_path / "papers")
        report = pipeline.run_once(settings, store, at("2026-12-01T10:00Z"))
        assert [(s.status, s.held) for s in report.subscribers] == [("made", 1)]


def held_two(tmp_path: Path, ana: Subscriber) -> tuple[Settings, Store, str]:
    """Two papers naming ana's alert keyword at 10:00 under a cap of 1: one alerted, one held;
    returns the held one's id."""
    settings = settings_for(tmp_path, ana)
    store = Store(tmp_path / "s.db")
    first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
    text = "Membership inference attacks on differential privacy in federated learning"
    mia = [paper(f"m{i}", f"{text}, watermark number {i}.") for i in (1, 2)]
    arrive(tmp_path / "papers", "1", *mia)
    pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
    (held,) = {"m1", "m2"} - {pid for _, pid, _ in alerted(store)}
    return settings, store, held


def test_a_held_alert_the_reader_has_since_excluded_is_never_shown(tmp_path: Path) -> None:
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",))
    ana = replace(ana, max_alerts_per_day=1)
    settings, store, held = held_two(tmp_path, ana)
    with store:
        later = settings_for(
            tmp_path, replace(ana, profile=replace(ana.profile, exclude=("watermark",)))
        )
        pipeline.run_once(later, store, at("2026-12-01T09:00Z"))
        assert held not in given(store, "ana", "2026-12-01T08:00:00+00:00")
        assert store.journal.held_counts() == {}  # over: status names no held alert to come


def test_a_held_alert_is_scored_and_explained_as_the_reader_stands_at_the_digest(
    tmp_path: Path,
) -> None:
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",))
    ana = replace(ana, max_alerts_per_day=1)
    settings, store, held = held_two(tmp_path, ana)
    with store:
        (stored,) = store.journal.holds("ana")
        assert "differential privacy" in stored.scored.terms
        # The reader's words changed, and the keyword is still an alert rule: carried, explained
        # by today's words, the cap's note kept.
        now = replace(ana, profile=replace(ana.profile, interests="membership inference attacks"))
        message = pipeline.preview(
            settings_for(tmp_path, now), store, "ana", at("2026-12-01T09:00Z")
        )
        (entry,) = [e for e in message.entries if e.paper_id == held]
        assert "differential privacy" not in entry.because and "membership" in entry.because
        assert "held: the daily cap of 1 alert was reached" in entry.because
        # Alerts off: no longer a held alert; an ordinary candidate, ranked like any other.
        off = replace(now, alert_keywords=())
        report = pipeline.run_once(settings_for(tmp_path, off), store, at("2026-12-01T09:00Z"))
        assert [(s.held, s.picked) for s in report.subscribers] == [(0, 1)]
        assert given(store, "ana", "2026-12-01T08:00:00+00:00") == [held]


def test_held_alerts_of_many_readers_are_weighed_in_one_ranking_each_by_its_own_profile() -> None:
    from digest.models import Held, Paper, Scored

    fl = Paper("h1", "Membership inference in federated learning", "Attacks on federated clients.")
    sky = Paper("h2", "Membership inference for galaxy surveys", "Attacks on galaxy catalogues.")
    rules = {"alert_keywords": ("membership inference",)}
    ana, bob = (
        subscriber("ana", "federated learning", **rules),
        subscriber("bob", "galaxy", **rules),
    )
    carl = subscriber("carl", "galaxy")  # no alert rule any more: nothing held for him
    waited = "held: the daily cap of 1 alert was reached"
    held = {
        "ana": [Held(Scored(fl, 0.9, ("then",), ""), ("mentions it", waited))],
        "bob": [Held(Scored(sky, 0.9, ("then",), ""), ("mentions it",))],
        "carl": [Held(Scored(sky, 0.9, ("then",), ""), ("mentions it",))],
    }
    now = alerts.standing([ana, bob, carl], held, None, [ana, bob, carl])
    assert [h.scored.paper.id for h in now["ana"]] == ["h1"]
    assert (
        "federated learning" in now["ana"][0].scored.terms and now["ana"][0].reasons[-1] == waited
    )
    assert [h.scored.paper.id for h in now["bob"]] == ["h2"] and "galaxy" in now["bob"][
        0
    ].scored.terms
    assert now["carl"] == []


def test_the_readers_own_paper_known_by_another_id_is_never_alerted_nor_held(
    tmp_path: Path,
) -> None:
    """The library holds the journal version (a DOI, its own title); the arXiv copy that names
    that DOI arrives and matches an alert keyword: it is the reader's, no alert, no held alert."""
    journal = Paper("10.1145/3700000.3700099", "Backdoors in federated recommenders", "x")
    ana = subscriber("ana", INTERESTS, alert_keywords=("membership inference",))
    ana = replace(ana, profile=replace(ana.profile, library=(journal,)))
    bob = replace(ana, name="bob", profile=replace(ana.profile, library=()))
    settings = settings_for(tmp_path, ana, bob)
    with Store(tmp_path / "s.db") as store:
        first_digest(tmp_path, settings, store, f"{MONDAY}T09:00Z")
        preprint = Paper("2611.80001", "Membership inference on federated recommenders", f"{MIA}.",
                         aliases=("10.1145/3700000.3700099",))  # fmt: skip
        store.add_papers([preprint], at(f"{MONDAY}T09:30Z"))
        report = pipeline.run_once(settings, store, at(f"{MONDAY}T10:00Z"))
        assert {a.subscriber: a.made for a in report.alerts} == {"ana": [], "bob": ["2611.80001"]}
        message = pipeline.preview(settings, store, "ana", at("2026-12-01T09:00Z"))
        assert "2611.80001" not in str(message)
        pipeline.run_once(settings, store, at("2026-12-01T09:00Z"))
        assert given(store, "ana", "2026-12-01T08:00:00+00:00") == []
